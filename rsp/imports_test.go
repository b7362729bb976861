package rsp

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// imports lists the import paths of the non-test Go files of dir.
func imports(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			out = append(out, p)
		}
	}
	return out
}

func stdlib(p string) bool {
	return !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") && !strings.HasPrefix(p, "rypsok")
}

func TestLeaf_RSPImportsNoProjectPackageButTool(t *testing.T) {
	for _, p := range imports(t, ".") {
		if !stdlib(p) && p != "rypsok/tool" {
			t.Errorf("package rsp imports %s", p)
		}
	}
	for dir, allowed := range map[string][]string{
		"plugins/secrets":   {"rypsok/rsp", "rypsok/secrets"},
		"plugins/injection": {"rypsok/rsp"},
		"plugins/gitleaks":  {"rypsok/rsp"}, // the severity table and the strict reading of rypsok rsp secrets
		"chaos":             {"rypsok/rsp"}, // StrictJSON, as a plugin of either dialect must read
	} {
		for _, p := range imports(t, dir) {
			if !stdlib(p) && !contains(allowed, p) {
				t.Errorf("%s imports %s", dir, p)
			}
		}
	}
}
