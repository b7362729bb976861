package rsp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// proc is one plugin process to run.
type proc struct {
	argv     []string
	env      []string
	input    []byte        // written to stdin, which is then closed
	fd3      *os.File      // inherited as descriptor 3 when not nil
	maxOut   int           // stdout cap in bytes
	maxErr   int           // stderr kept in bytes
	canceled func()        // called when the process is killed for ctx (tests)
	timeout  time.Duration // the call's time, which also bounds the wait for held pipes (zero: maxWaitDelay)
}

// outcome is what one process did.
type outcome struct {
	stdout []byte
	stderr []byte
	class  Class // empty when the process exited 0 within its time and cap
}

// maxWaitDelay bounds how long run waits, once the plugin has exited or
// its time has run out, for pipes that another process still holds open
// (a child of the plugin, or a process that left its group).
const maxWaitDelay = time.Second

// run starts p with its own process group, feeds stdin, collects stdout
// (up to maxOut bytes: beyond, the group is killed and the class is
// oversize) and stderr (the first maxErr bytes), and waits for the exit
// or for ctx. When ctx ends first the whole group is killed (the Cmd's
// Cancel) and the class is timeout. When the plugin has exited, its pipes
// are read to their end, or for at most the Cmd's WaitDelay (the call's
// timeout, at most maxWaitDelay) while a child still holds them;
// then the whole group is killed, so no process the plugin started
// outlives the call.
func run(ctx context.Context, p proc) outcome {
	if ctx.Err() != nil {
		return outcome{class: FailTimeout}
	}
	stdout := &capWriter{max: p.maxOut}
	stderr := &headWriter{max: p.maxErr}
	cmd := exec.CommandContext(ctx, p.argv[0], p.argv[1:]...)
	cmd.Env = p.env
	cmd.Stdin = bytes.NewReader(p.input)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if p.fd3 != nil {
		cmd.ExtraFiles = []*os.File{p.fd3}
	}
	ownGroup(cmd)
	var timedOut atomic.Bool
	cmd.Cancel = func() error {
		timedOut.Store(true)
		killGroup(cmd.Process.Pid)
		if p.canceled != nil {
			p.canceled()
		}
		return nil
	}
	cmd.WaitDelay = maxWaitDelay
	if p.timeout > 0 {
		cmd.WaitDelay = min(p.timeout, maxWaitDelay)
	}
	if err := cmd.Start(); err != nil {
		return outcome{class: FailSpawn}
	}
	pid := cmd.Process.Pid
	stdout.setKill(func() { killGroup(pid) })
	err := cmd.Wait()
	killGroup(pid)

	o := outcome{stdout: stdout.bytes(), stderr: stderr.buf}
	switch {
	case timedOut.Load():
		o.class, o.stdout = FailTimeout, nil
	case stdout.over():
		o.class = FailOversize
	case err != nil && !errors.Is(err, exec.ErrWaitDelay): // a non-zero status, a signal, or a failed wait
		o.class = FailExit
	}
	return o
}

// capWriter keeps what is written up to max bytes; the first write
// beyond calls kill once and drops everything kept.
type capWriter struct {
	mu       sync.Mutex
	max      int
	buf      []byte
	oversize bool
	kill     func()
}

func (w *capWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.oversize {
		return len(b), nil
	}
	if len(w.buf)+len(b) > w.max {
		w.oversize, w.buf = true, nil
		if w.kill != nil {
			w.kill()
		}
		return len(b), nil
	}
	w.buf = append(w.buf, b...)
	return len(b), nil
}

// setKill sets what the first write beyond max calls, and calls it now
// when that write came first.
func (w *capWriter) setKill(kill func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.kill = kill
	if w.oversize {
		kill()
	}
}

func (w *capWriter) over() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.oversize
}

func (w *capWriter) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf
}

// ReadFrom lets the Cmd's copying goroutine read stdout without going
// through io.Copy's generic path (32 KiB at a time, as before).
func (w *capWriter) ReadFrom(r io.Reader) (int64, error) { return readInto(w, r, 32<<10) }

// readInto copies r to w through a buffer of size bytes and ends without
// an error at EOF.
func readInto(w io.Writer, r io.Reader, size int) (int64, error) {
	buf := make([]byte, size)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			_, _ = w.Write(buf[:n]) // the writers here never fail
			total += int64(n)
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// headWriter keeps the first max bytes written and discards the rest.
type headWriter struct {
	max int
	buf []byte
}

func (w *headWriter) Write(b []byte) (int, error) {
	if n := min(len(b), w.max-len(w.buf)); n > 0 {
		w.buf = append(w.buf, b[:n]...)
	}
	return len(b), nil
}

// ReadFrom is as capWriter's, for stderr, through a smaller buffer: most
// of a noisy stderr is discarded.
func (w *headWriter) ReadFrom(r io.Reader) (int64, error) { return readInto(w, r, 4<<10) }
