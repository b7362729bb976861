package tomlx

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The size of the TOML 1.0 list of the toml-test copy in the shared bench
// folder; a run must read all of it.
const (
	suiteValidDocs   = 210
	suiteInvalidDocs = 499
)

// TestTOMLTestSuite measures the parser against the public toml-test suite
// when TOMLX_TOMLTEST_DIR names its tests/ folder (the one holding
// files-toml-1.0.0, valid/ and invalid/); a relative path is taken from
// this package's folder or, failing that, from the module's. It reads the
// TOML 1.0 list only. Every valid document must parse and match its .json
// expectation for strings, integers, booleans and structure, with floats
// and dates only recognised; every invalid document must be refused with a
// place. It fails unless all of the list's 210 valid and 499 invalid
// documents are read and pass.
func TestTOMLTestSuite(t *testing.T) {
	dir := os.Getenv("TOMLX_TOMLTEST_DIR")
	if dir == "" {
		t.Skip("TOMLX_TOMLTEST_DIR is not set")
	}
	if _, err := os.Stat(dir); err != nil && !filepath.IsAbs(dir) {
		if _, err := os.Stat(filepath.Join("..", dir)); err == nil {
			dir = filepath.Join("..", dir)
		}
	}
	list, err := os.ReadFile(filepath.Join(dir, "files-toml-1.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	var valid, validOK, invalid, invalidOK int
	for _, name := range strings.Fields(string(list)) {
		if !strings.HasSuffix(name, ".toml") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		doc, perr := Parse(data)
		switch {
		case strings.HasPrefix(name, "valid/"):
			valid++
			if perr != nil {
				t.Errorf("valid %s: %v", name, perr)
				continue
			}
			want, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(name, ".toml")+".json"))
			if err != nil {
				validOK++
				continue
			}
			var expect any
			if err := json.Unmarshal(want, &expect); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if diff := compareSuite(&Value{Kind: KindTable, Table: doc}, expect, "$"); diff != "" {
				t.Errorf("valid %s: %s", name, diff)
				continue
			}
			validOK++
		case strings.HasPrefix(name, "invalid/"):
			invalid++
			if perr == nil {
				t.Errorf("invalid %s: accepted", name)
				continue
			}
			var e *Error
			if !errors.As(perr, &e) || e.Line < 1 || e.Col < 1 {
				t.Errorf("invalid %s: error without place: %v", name, perr)
				continue
			}
			invalidOK++
		}
	}
	t.Logf("valid: %d of %d accepted and matching", validOK, valid)
	t.Logf("invalid: %d of %d refused", invalidOK, invalid)
	if valid != suiteValidDocs || validOK != valid {
		t.Errorf("valid: %d of %d accepted and matching, want %d of %d", validOK, valid, suiteValidDocs, suiteValidDocs)
	}
	if invalid != suiteInvalidDocs || invalidOK != invalid {
		t.Errorf("invalid: %d of %d refused, want %d of %d", invalidOK, invalid, suiteInvalidDocs, suiteInvalidDocs)
	}
}

func compareSuite(v *Value, expect any, at string) string {
	switch e := expect.(type) {
	case []any:
		if v.Kind != KindArray {
			return fmt.Sprintf("%s: want an array, found kind %d", at, v.Kind)
		}
		if len(v.Array) != len(e) {
			return fmt.Sprintf("%s: want %d elements, found %d", at, len(e), len(v.Array))
		}
		for i := range e {
			if d := compareSuite(v.Array[i], e[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	case map[string]any:
		if typ, val, ok := suiteScalar(e); ok {
			return compareScalar(v, typ, val, at)
		}
		if v.Kind != KindTable {
			return fmt.Sprintf("%s: want a table, found kind %d", at, v.Kind)
		}
		if d := checkTableShape(v.Table); d != "" {
			return at + ": " + d
		}
		var wantKeys []string
		for k := range e {
			wantKeys = append(wantKeys, k)
		}
		gotKeys := append([]string(nil), v.Table.Keys...)
		sort.Strings(wantKeys)
		sort.Strings(gotKeys)
		if strings.Join(wantKeys, "\x00") != strings.Join(gotKeys, "\x00") {
			return fmt.Sprintf("%s: keys %q, want %q", at, gotKeys, wantKeys)
		}
		for _, k := range wantKeys {
			if d := compareSuite(v.Table.Values[k], e[k], at+"."+strconv.Quote(k)); d != "" {
				return d
			}
		}
		return ""
	}
	return fmt.Sprintf("%s: unexpected expectation %T", at, expect)
}

func suiteScalar(m map[string]any) (typ, val string, ok bool) {
	if len(m) != 2 {
		return "", "", false
	}
	typ, ok1 := m["type"].(string)
	val, ok2 := m["value"].(string)
	return typ, val, ok1 && ok2
}

func compareScalar(v *Value, typ, val, at string) string {
	ok := false
	switch typ {
	case "string":
		ok = v.Kind == KindString && v.Str == val
	case "integer":
		ok = v.Kind == KindInteger && strconv.FormatInt(v.Int, 10) == val
	case "bool":
		ok = v.Kind == KindBool && strconv.FormatBool(v.Bool) == val
	case "float":
		ok = v.Kind == KindFloat
	case "datetime", "datetime-local", "date-local", "time-local":
		ok = v.Kind == KindDatetime
	}
	if !ok {
		return fmt.Sprintf("%s: want %s %q, found kind %d (%q %d %v)", at, typ, val, v.Kind, v.Str, v.Int, v.Bool)
	}
	return ""
}
