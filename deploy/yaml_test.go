package deploy

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A reader for the subset of YAML the manifests under kubernetes/ are
// written in, for the tests only (the module takes no YAML library): block
// mappings and sequences by indentation, "- key: value" items, flow
// sequences and quoted strings in JSON's syntax, literal block scalars
// ("|"), whole-line comments and "---" between documents. Plain scalars are
// strings except true, false and decimal integers. Anything else is an
// error, so a manifest that leaves the subset fails its test rather than
// being misread.

type yline struct {
	indent int
	text   string
	no     int // 1-based line number
}

// parseYAMLDocuments returns the documents of a file.
func parseYAMLDocuments(src string) ([]map[string]any, error) {
	var docs []map[string]any
	var cur []yline
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		v, next, err := parseYNode(cur, 0, cur[0].indent)
		if err != nil {
			return err
		}
		if next != len(cur) {
			return fmt.Errorf("line %d: unexpected indentation", cur[next].no)
		}
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("line %d: a document must be a mapping", cur[0].no)
		}
		docs = append(docs, m)
		cur = nil
		return nil
	}
	raw := strings.Split(src, "\n")
	for i := 0; i < len(raw); i++ {
		line := strings.TrimRight(raw[i], " \r")
		if strings.Contains(line, "\t") {
			return nil, fmt.Errorf("line %d: a tab", i+1)
		}
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "---" {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(line) - len(trimmed)
		cur = append(cur, yline{indent: indent, text: trimmed, no: i + 1})
		// A literal block scalar takes every following line indented more
		// than its key, blank lines included, verbatim.
		if strings.HasSuffix(trimmed, ": |") || trimmed == "- |" {
			var block []string
			blockIndent := -1
			j := i + 1
			for ; j < len(raw); j++ {
				l := strings.TrimRight(raw[j], " \r")
				t := strings.TrimLeft(l, " ")
				if t == "" {
					block = append(block, "")
					continue
				}
				ind := len(l) - len(t)
				if ind <= indent {
					break
				}
				if blockIndent < 0 {
					blockIndent = ind
				}
				if ind < blockIndent {
					return nil, fmt.Errorf("line %d: a block scalar line indented less than its first", j+1)
				}
				block = append(block, l[blockIndent:])
			}
			for len(block) > 0 && block[len(block)-1] == "" {
				block = block[:len(block)-1]
			}
			text := strings.Join(block, "\n") + "\n"
			cur[len(cur)-1].text = strings.TrimSuffix(trimmed, "|") + strconv.Quote(text)
			i = j - 1
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return docs, nil
}

func isSeqItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

func parseYNode(ls []yline, i, indent int) (any, int, error) {
	if isSeqItem(ls[i].text) {
		return parseYSeq(ls, i, indent)
	}
	return parseYMap(ls, i, indent)
}

// splitKey splits "key: value" or "key:"; ok is false for a scalar.
func splitKey(text string) (key, rest string, ok bool) {
	if strings.HasPrefix(text, `"`) || strings.HasPrefix(text, "[") || strings.HasPrefix(text, "{") {
		return "", "", false
	}
	if k, r, found := strings.Cut(text, ": "); found {
		return k, strings.TrimSpace(r), validKey(k)
	}
	if strings.HasSuffix(text, ":") {
		k := strings.TrimSuffix(text, ":")
		return k, "", validKey(k)
	}
	return "", "", false
}

func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./", r)) {
			return false
		}
	}
	return true
}

func parseYMap(ls []yline, i, indent int) (any, int, error) {
	m := map[string]any{}
	for i < len(ls) && ls[i].indent == indent && !isSeqItem(ls[i].text) {
		key, rest, ok := splitKey(ls[i].text)
		if !ok {
			return nil, i, fmt.Errorf("line %d: %q is not key: value", ls[i].no, ls[i].text)
		}
		if _, dup := m[key]; dup {
			return nil, i, fmt.Errorf("line %d: %s twice", ls[i].no, key)
		}
		if rest != "" {
			v, err := parseYScalar(rest, ls[i].no)
			if err != nil {
				return nil, i, err
			}
			m[key] = v
			i++
			continue
		}
		i++
		if i < len(ls) && (ls[i].indent > indent || ls[i].indent == indent && isSeqItem(ls[i].text)) {
			v, next, err := parseYNode(ls, i, ls[i].indent)
			if err != nil {
				return nil, i, err
			}
			m[key] = v
			i = next
		} else {
			m[key] = nil
		}
	}
	if i < len(ls) && ls[i].indent > indent {
		return nil, i, fmt.Errorf("line %d: unexpected indentation", ls[i].no)
	}
	return m, i, nil
}

func parseYSeq(ls []yline, i, indent int) (any, int, error) {
	var s []any
	for i < len(ls) && ls[i].indent == indent && isSeqItem(ls[i].text) {
		item := strings.TrimSpace(strings.TrimPrefix(ls[i].text, "-"))
		switch {
		case item == "":
			i++
			if i >= len(ls) || ls[i].indent <= indent {
				s = append(s, nil)
				continue
			}
			v, next, err := parseYNode(ls, i, ls[i].indent)
			if err != nil {
				return nil, i, err
			}
			s = append(s, v)
			i = next
		default:
			if _, _, ok := splitKey(item); ok {
				// "- key: value" opens a mapping two columns in.
				sub := append([]yline{}, ls...)
				sub[i] = yline{indent: indent + 2, text: item, no: ls[i].no}
				v, next, err := parseYMap(sub, i, indent+2)
				if err != nil {
					return nil, i, err
				}
				s = append(s, v)
				i = next
				continue
			}
			v, err := parseYScalar(item, ls[i].no)
			if err != nil {
				return nil, i, err
			}
			s = append(s, v)
			i++
		}
	}
	return s, i, nil
}

func parseYScalar(text string, no int) (any, error) {
	switch {
	case strings.HasPrefix(text, `"`), strings.HasPrefix(text, "["), strings.HasPrefix(text, "{"):
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, fmt.Errorf("line %d: %q: %v", no, text, err)
		}
		return v, nil
	case strings.HasPrefix(text, "'"), strings.HasPrefix(text, "&"), strings.HasPrefix(text, "*"),
		strings.HasPrefix(text, "!"), strings.HasPrefix(text, ">"), strings.Contains(text, " #"):
		return nil, fmt.Errorf("line %d: %q is outside the YAML subset of the manifests", no, text)
	case text == "true":
		return true, nil
	case text == "false":
		return false, nil
	}
	if n, err := strconv.Atoi(text); err == nil && (text == "0" || !strings.HasPrefix(text, "0")) {
		return n, nil
	}
	if strings.HasPrefix(text, "0") && len(text) > 1 {
		if n, err := strconv.ParseInt(text, 8, 64); err == nil {
			return int(n), nil // YAML 1.1 octal, as Kubernetes reads 0444
		}
	}
	return text, nil
}
