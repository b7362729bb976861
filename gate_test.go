package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// clockReaders are the functions of package time that read the system
// clock or start a timer on it.
var clockReaders = map[string]bool{
	"Now": true, "Since": true, "Until": true, "After": true, "AfterFunc": true,
	"NewTimer": true, "NewTicker": true, "Tick": true, "Sleep": true,
}

// TestREQ_TEST_012_ClockOnlyThroughTheInjectedClock is the gate of the
// injected clock: outside package main and the one clock.go of each package,
// no non-test source may read the system clock or start a timer on it. A
// fake clock on a fixed date next to one such reading made the suite fail
// on every day after the test was written.
func TestREQ_TEST_012_ClockOnlyThroughTheInjectedClock(t *testing.T) {
	var offences []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || d.Name() == "clock.go" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil // the binary's and the scripts' own process
		}
		timeName := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
				timeName = "time"
				if imp.Name != nil {
					timeName = imp.Name.Name
				}
			}
		}
		if timeName == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == timeName && clockReaders[sel.Sel.Name] {
					offences = append(offences, fset.Position(sel.Pos()).String()+": time."+sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(offences) > 0 {
		t.Errorf("read the injected clock instead (Deps.Now), or move the reading into the package's clock.go:\n%s", strings.Join(offences, "\n"))
	}
}
