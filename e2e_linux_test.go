// The tests of the e2e suite that need Linux (a PID namespace).

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestREQ_OPS_002_SIGTERMAsPID1: as the first process of a PID namespace (a
// container's PID 1, where an unhandled SIGTERM is ignored) rypsok still
// exits with 0 on SIGTERM, with a call in flight. It needs the right to
// make a PID namespace (root, as in CI containers); where the kernel refuses
// it the test says so and stops.
func TestREQ_OPS_002_SIGTERMAsPID1(t *testing.T) {
	s, cfg := site(t, 20*time.Second)
	cmd := serveCmd(t, cfg, s.CertFile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWPID}
	in, _ := cmd.StdinPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot make a PID namespace here (%v)", err)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"rust"},`+tutorialMeta+`}}`+"\n")
	time.Sleep(300 * time.Millisecond)
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	pid1 := false
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "NSpid:" {
			pid1 = f[len(f)-1] == "1"
		}
	}
	if !pid1 {
		t.Fatalf("rypsok is not PID 1 of its namespace:\n%s", status)
	}
	t0 := time.Now()
	// Seen from here the child has its own pid; inside its namespace it is 1.
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, stderr.String())
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("rypsok as PID 1 ignored SIGTERM")
	}
	if took := time.Since(t0); took > 2500*time.Millisecond {
		t.Fatalf("exit took %s", took)
	}
}
