package tomlx

import (
	"fmt"
	"strconv"
	"strings"
)

// checkTableShape checks one table's bookkeeping: every key listed once,
// with a value and a place, and nothing unlisted.
func checkTableShape(t *Table) string {
	if t == nil {
		return "nil table"
	}
	if len(t.Keys) != len(t.Values) || len(t.Keys) != len(t.KeyLine) || len(t.Keys) != len(t.KeyCol) {
		return fmt.Sprintf("%d keys, %d values, %d lines, %d columns", len(t.Keys), len(t.Values), len(t.KeyLine), len(t.KeyCol))
	}
	seen := make(map[string]bool, len(t.Keys))
	for _, k := range t.Keys {
		if seen[k] {
			return "key listed twice"
		}
		seen[k] = true
		if t.Values[k] == nil {
			return "key without value"
		}
		if t.KeyLine[k] < 1 || t.KeyCol[k] < 1 {
			return "key without place"
		}
	}
	return ""
}

// checkTree checks every table and value under t: shapes as above, every
// value with a place of at least line 1, column 1, and a kind that agrees
// with its fields. It walks with an explicit stack.
func checkTree(t *Table) string {
	type item struct {
		v    *Value
		path string
	}
	stack := []item{{&Value{Kind: KindTable, Table: t, Line: 1, Col: 1}, "$"}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v := it.v
		if v == nil {
			return it.path + ": nil value"
		}
		if v.Line < 1 || v.Col < 1 {
			return fmt.Sprintf("%s: place %d:%d", it.path, v.Line, v.Col)
		}
		switch v.Kind {
		case KindTable:
			if d := checkTableShape(v.Table); d != "" {
				return it.path + ": " + d
			}
			for _, k := range v.Table.Keys {
				stack = append(stack, item{v.Table.Values[k], it.path + "." + strconv.Quote(k)})
			}
		case KindArray:
			for i, e := range v.Array {
				stack = append(stack, item{e, fmt.Sprintf("%s[%d]", it.path, i)})
			}
		default:
			if v.Table != nil || v.Array != nil {
				return it.path + ": a scalar with children"
			}
		}
	}
	return ""
}

// dump renders a table compactly for table tests: s"..." strings, i<n>
// integers, b<bool>, f for floats, d for dates, [..] arrays, {k=..}
// tables with keys in definition order.
func dump(t *Table) string {
	var b strings.Builder
	dumpTable(&b, t)
	return b.String()
}

func dumpTable(b *strings.Builder, t *Table) {
	b.WriteByte('{')
	for i, k := range t.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(keyPath([]string{k}))
		b.WriteByte('=')
		dumpValue(b, t.Values[k])
	}
	b.WriteByte('}')
}

func dumpValue(b *strings.Builder, v *Value) {
	switch v.Kind {
	case KindString:
		b.WriteString("s" + strconv.Quote(v.Str))
	case KindInteger:
		b.WriteString("i" + strconv.FormatInt(v.Int, 10))
	case KindBool:
		b.WriteString("b" + strconv.FormatBool(v.Bool))
	case KindFloat:
		b.WriteString("f")
	case KindDatetime:
		b.WriteString("d")
	case KindArray:
		b.WriteByte('[')
		for i, e := range v.Array {
			if i > 0 {
				b.WriteByte(',')
			}
			dumpValue(b, e)
		}
		b.WriteByte(']')
	case KindTable:
		dumpTable(b, v.Table)
	}
}
