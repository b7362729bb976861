package main

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestShape_NoCycleBetweenFilesOfOnePackage is the gate of the files'
// jobs: inside every package of the module, the files depend on each other
// without a loop, so each file can be read after the files it needs and
// moved or split without dragging the others along. A loop (the extractor's
// three files that called each other) hid which file held which job.
//
// The rules of the graph, per package:
//   - The files are the package's non-test .go files that build on this
//     platform (go/build's choice); _test.go files are not part of it.
//   - A file A depends on a file B of the same package when A uses an
//     identifier declared at the top level of B: a function, type,
//     variable or constant, found by type-checking the package
//     (go/types), so a local name that shadows a top-level one is not a use.
//   - A method belongs to the file that declares it: calling or taking it
//     (x.m, T.m, through an embedded field) uses that file, whenever the
//     type checker resolves the selector to the method. A call through an
//     interface resolves to the interface's method, so it uses the file
//     that declares the interface, not the implementations.
//   - A field belongs to the file that declares its struct: selecting it
//     uses that file.
//   - Declaring a method on a type uses the file that declares the type.
//   - Imports are not followed: other packages are opaque, so a use that
//     needs an imported type to resolve is not counted.
//
// The test fails with each strongly connected set of files, one loop
// through it, and the uses between its files.
func TestShape_NoCycleBetweenFilesOfOnePackage(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var loops []string
	checked := 0
	for _, dir := range dirs {
		bp, err := build.ImportDir(dir, 0)
		if err != nil || len(bp.GoFiles) < 2 {
			continue // no Go files, or nothing for a loop to form between
		}
		graph, err := fileGraph(dir, bp.GoFiles)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		checked++
		for _, set := range graph.cycles() {
			loops = append(loops, fmt.Sprintf("%s: %s\n\tloop: %s\n\tuses: %s", dir, strings.Join(set.files, ", "),
				strings.Join(set.loop, " -> "), strings.Join(set.edges, "; ")))
		}
	}
	if checked == 0 {
		t.Fatal("no package with two or more files was found; the walk is broken")
	}
	if len(loops) > 0 {
		t.Errorf("%d sets of files depend on each other in a loop; move the declarations so that the files depend one way:\n%s",
			len(loops), strings.Join(loops, "\n"))
	}
}

// fileDeps maps each file of one package to the files it uses, and each
// use to the identifiers that make it.
type fileDeps struct {
	files []string
	uses  map[string]map[string][]string // from -> to -> identifiers, sorted
}

// opaqueImporter gives every imported package as an empty, complete
// package: the graph is about the files of one package, and reading the
// export data of the others would only cost time.
type opaqueImporter struct{ pkgs map[string]*types.Package }

func (o opaqueImporter) Import(path string) (*types.Package, error) {
	if p, ok := o.pkgs[path]; ok {
		return p, nil
	}
	p := types.NewPackage(path, filepath.Base(path))
	p.MarkComplete()
	o.pkgs[path] = p
	return p, nil
}

// fileGraph type-checks one package's files and records which file uses
// which, by the rules of TestShape_NoCycleBetweenFilesOfOnePackage.
func fileGraph(dir string, names []string) (*fileDeps, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{
		Importer: opaqueImporter{pkgs: map[string]*types.Package{}},
		Error:    func(error) {}, // uses of the opaque imports do not resolve; the rest does
	}
	pkg, _ := conf.Check(dir, fset, files, info)
	g := &fileDeps{files: names, uses: map[string]map[string][]string{}}
	fileOf := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	add := func(from token.Pos, obj types.Object, what string) {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			return
		}
		a, b := fileOf(from), fileOf(obj.Pos())
		if a == b {
			return
		}
		if g.uses[a] == nil {
			g.uses[a] = map[string][]string{}
		}
		if !slices.Contains(g.uses[a][b], what) {
			g.uses[a][b] = append(g.uses[a][b], what)
			slices.Sort(g.uses[a][b])
		}
	}
	for id, obj := range info.Uses {
		switch o := obj.(type) {
		case *types.Func:
			if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
				add(id.Pos(), obj, "method "+id.Name)
				continue
			}
		case *types.Var:
			if o.IsField() {
				add(id.Pos(), obj, "field "+id.Name)
				continue
			}
		}
		if obj.Parent() == pkg.Scope() {
			add(id.Pos(), obj, id.Name)
		}
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			if named := receiverType(info, fd); named != nil {
				add(fd.Pos(), named.Obj(), "method "+fd.Name.Name+" on "+named.Obj().Name())
			}
		}
	}
	return g, nil
}

// receiverType is the named type a method is declared on.
func receiverType(info *types.Info, fd *ast.FuncDecl) *types.Named {
	obj, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return nil
	}
	sig, ok := obj.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := t.(*types.Named)
	return named
}

// loopSet is one strongly connected set of files and one loop through it.
type loopSet struct {
	files []string
	loop  []string
	edges []string // every use between two files of the set
}

// cycles finds the strongly connected sets of two or more files (Tarjan's
// algorithm, over the files in name order so the message is stable).
func (g *fileDeps) cycles() []loopSet {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out []loopSet
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range g.targets(v) {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var set []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			set = append(set, w)
			if w == v {
				break
			}
		}
		if len(set) > 1 {
			sort.Strings(set)
			out = append(out, loopSet{files: set, loop: g.loopThrough(set), edges: g.edgesWithin(set)})
		}
	}
	for _, f := range g.files {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	return out
}

// maxNamesShown bounds the identifiers the message names for one use.
const maxNamesShown = 4

// edgesWithin lists the uses between files of set, one line each.
func (g *fileDeps) edgesWithin(set []string) []string {
	var out []string
	for _, a := range set {
		for _, b := range set {
			if what, ok := g.uses[a][b]; ok {
				if len(what) > maxNamesShown {
					what = append(what[:maxNamesShown:maxNamesShown], fmt.Sprintf("and %d more", len(what)-maxNamesShown))
				}
				out = append(out, a+" -> "+b+" ("+strings.Join(what, ", ")+")")
			}
		}
	}
	return out
}

// targets are the files v uses, in name order.
func (g *fileDeps) targets(v string) []string {
	var ts []string
	for w := range g.uses[v] {
		ts = append(ts, w)
	}
	sort.Strings(ts)
	return ts
}

// loopThrough is a shortest loop from the first file of set back to it,
// each step naming the identifier that makes it.
func (g *fileDeps) loopThrough(set []string) []string {
	in := map[string]bool{}
	for _, f := range set {
		in[f] = true
	}
	start := set[0]
	prev := map[string]string{}
	queue := []string{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g.targets(v) {
			if !in[w] {
				continue
			}
			if w == start {
				path := []string{start + " (" + g.uses[v][w][0] + ")"}
				for u := v; u != start; u = prev[u] {
					path = append(path, u+" ("+g.uses[prev[u]][u][0]+")")
				}
				path = append(path, start)
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if _, seen := prev[w]; !seen {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	return set
}

// TestShape_FileGraphRules checks the checker on two small packages made
// for it: a method declared in one file on a type of another, called back
// from the type's file, is a loop; a field, a method and a type used one
// way are uses, and a local that shares a top-level name is not.
func TestShape_FileGraphRules(t *testing.T) {
	loop, err := fileGraph("testdata/filegraph/loop", []string{"kind.go", "name.go"})
	if err != nil {
		t.Fatal(err)
	}
	sets := loop.cycles()
	if len(sets) != 1 || strings.Join(sets[0].files, ",") != "kind.go,name.go" {
		t.Errorf("loop: want one set kind.go,name.go, got %+v", sets)
	}
	if got := loop.uses["name.go"]["kind.go"]; !slices.Contains(got, "method name on kind") {
		t.Errorf("declaring a method on kind should use kind.go; name.go -> kind.go: %v", got)
	}
	if got := loop.uses["kind.go"]["name.go"]; !slices.Contains(got, "method name") {
		t.Errorf("calling k.name() should use name.go; kind.go -> name.go: %v", got)
	}

	oneway, err := fileGraph("testdata/filegraph/oneway", []string{"base.go", "user.go"})
	if err != nil {
		t.Fatal(err)
	}
	if sets := oneway.cycles(); len(sets) != 0 {
		t.Errorf("oneway: want no loop, got %+v", sets)
	}
	want := []string{"base", "field n", "method get"}
	if got := oneway.uses["user.go"]["base.go"]; !slices.Equal(got, want) {
		t.Errorf("user.go -> base.go: want %v, got %v", want, got)
	}
	if got := oneway.uses["base.go"]["user.go"]; len(got) != 0 {
		t.Errorf("a local named top is not a use of user.go's top, got %v", got)
	}
}
