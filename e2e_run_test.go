package main

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// servedRun is a running binary whose stderr lines are kept as they come.
type servedRun struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	logs []string // every stderr line so far
	done chan struct{}
	err  error // of Wait, once done is closed
}

// startServed starts cmd, keeps its stderr lines, and waits up to 10 s for
// the first line that logs event. It returns that line's address and
// whether it was the log's first line. exited, when not nil, is given the
// exit's error and returns the run's (a check made once the binary ended).
// The binary is killed when the test ends, if it still runs.
func startServed(t *testing.T, cmd *exec.Cmd, event string, exited func(error) error) (r *servedRun, addr string, first bool) {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r = &servedRun{cmd: cmd, done: make(chan struct{})}
	type seen struct {
		addr  string
		first bool
	}
	found := make(chan seen, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			r.mu.Lock()
			r.logs = append(r.logs, line)
			n := len(r.logs)
			r.mu.Unlock()
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["event"] == event {
				a, _ := m["address"].(string)
				select {
				case found <- seen{a, n == 1}:
				default:
				}
			}
		}
		r.err = cmd.Wait()
		if exited != nil {
			r.err = exited(r.err)
		}
		close(r.done)
	}()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			cmd.Process.Kill()
			<-r.done
		}
	})
	select {
	case s := <-found:
		return r, s.addr, s.first
	case <-r.done:
		t.Fatalf("serve exited before its %s line: %v\n%s", event, r.err, r.stderr())
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s line:\n%s", event, r.stderr())
	}
	return nil, "", false
}

func (r *servedRun) stderr() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.logs, "\n")
}

func (r *servedRun) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.logs...)
}

// stop sends SIGTERM and returns the exit error and how long the exit took.
func (r *servedRun) stop(t *testing.T) (error, time.Duration) {
	t.Helper()
	t0 := time.Now()
	r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
		return r.err, time.Since(t0)
	case <-time.After(10 * time.Second):
		r.cmd.Process.Kill()
		t.Fatal("serve did not exit after SIGTERM")
		return nil, 0
	}
}
