package plugintest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Main builds the main package at pkg (a path as `go build` takes it,
// relative to the test's package) into a temporary directory, sets *bin to
// the binary, runs the tests, and returns their exit code — 1 when a
// process of that binary is still alive once they are done (after a grace
// for processes killed a moment ago). Use it as
//
//	func TestMain(m *testing.M) { os.Exit(plugintest.Main(m, "./chaos", &chaosBin)) }
func Main(m *testing.M, pkg string, bin *string) int {
	dir, err := os.MkdirTemp("", "rsp-plugin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	*bin = filepath.Join(dir, filepath.Base(pkg))
	build := exec.Command("go", "build", "-o", *bin, pkg)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the plugin", pkg+":", err)
		return 1
	}
	code := m.Run()
	if left := WaitGone(*bin); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: plugin processes left after the tests: %v\n", left)
		code = 1
	}
	return code
}

// NoneLeft fails t when a process of the binary at path is alive after the
// grace of WaitGone.
func NoneLeft(t testing.TB, path string) {
	t.Helper()
	if left := WaitGone(path); len(left) > 0 {
		t.Fatalf("plugin processes outlived their calls: %v", left)
	}
}
