package rsp

import (
	"context"
	"io"
	"os"
	"os/exec"
	"sync"
)

// proc is one plugin process to run.
type proc struct {
	argv     []string
	env      []string
	input    []byte   // written to stdin, which is then closed
	fd3      *os.File // inherited as descriptor 3 when not nil
	maxOut   int      // stdout cap in bytes
	maxErr   int      // stderr kept in bytes
	canceled func()   // called when the process is killed for ctx (tests)
}

// outcome is what one process did.
type outcome struct {
	stdout []byte
	stderr []byte
	class  Class // empty when the process exited 0 within its time and cap
}

// run starts p with its own process group, feeds stdin, collects stdout
// (up to maxOut bytes: beyond, the group is killed and the class is
// oversize) and stderr (the first maxErr bytes), and waits for the exit
// or for ctx. When ctx ends first the whole group is killed and the class
// is timeout. In every case the group is killed once more after the exit,
// so no process the plugin started outlives the call.
func run(ctx context.Context, p proc) outcome {
	if ctx.Err() != nil {
		return outcome{class: FailTimeout}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return outcome{class: FailSpawn}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return outcome{class: FailSpawn}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return outcome{class: FailSpawn}
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Env = p.env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if p.fd3 != nil {
		cmd.ExtraFiles = []*os.File{p.fd3}
	}
	ownGroup(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return outcome{class: FailSpawn}
	}
	pid := cmd.Process.Pid

	var wg sync.WaitGroup
	var stdout, stderr []byte
	var oversize bool
	wg.Add(3)
	go func() {
		defer wg.Done()
		_, _ = inW.Write(p.input) // a plugin that exits without reading gets no error from us
		inW.Close()
	}()
	go func() {
		defer wg.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := outR.Read(buf)
			if !oversize {
				if len(stdout)+n > p.maxOut {
					oversize = true
					stdout = nil
					killGroup(pid)
				} else {
					stdout = append(stdout, buf[:n]...)
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		stderr, _ = io.ReadAll(io.LimitReader(errR, int64(p.maxErr)))
		_, _ = io.Copy(io.Discard, errR)
	}()

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	timedOut := false
	select {
	case err = <-waited:
	case <-ctx.Done():
		killGroup(pid)
		if p.canceled != nil {
			p.canceled()
		}
		err = <-waited
		timedOut = true
	}
	killGroup(pid)

	// The pipes reach EOF once every process of the group is gone. A
	// process that left the group could hold them open: ctx bounds that.
	drained := make(chan struct{})
	go func() { wg.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-ctx.Done():
		inW.Close()
		outR.Close()
		errR.Close()
		<-drained
		timedOut = timedOut || err == nil
	}
	outR.Close()
	errR.Close()

	o := outcome{stdout: stdout, stderr: stderr}
	switch {
	case timedOut:
		o.class = FailTimeout
	case oversize:
		o.class = FailOversize
	case err != nil: // a non-zero status, a signal, or a failed wait
		o.class = FailExit
	}
	return o
}
