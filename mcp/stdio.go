package mcp

// The stdio transport: one session per stream, one message per line, each
// answer a whole line written and flushed at once.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// maxLineBytes is LIM-O3: the largest line of the stdio transport, newline
// included. A longer line is dropped without an answer and reading goes on.
const maxLineBytes = 16 << 20

// errLineTooLong reports a line above the limit; it has been discarded.
var errLineTooLong = errors.New("mcp: line above the limit, discarded")

// lineReader splits a byte stream into lines without ever holding more than
// limitBytes of one line: the rest of a longer line is read and discarded.
type lineReader struct {
	r          *bufio.Reader
	buf        []byte
	limitBytes int
}

func newLineReader(r io.Reader, limitBytes int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), limitBytes: limitBytes}
}

// next returns the next line without its newline and without a trailing
// carriage return. The slice is valid until the next call. It returns
// errLineTooLong for a line it dropped, and io.EOF (or the read error) at
// the end; a last line without a newline is returned before io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	const keepBytes = 1 << 20
	if cap(lr.buf) > keepBytes {
		lr.buf = nil
	}
	lr.buf = lr.buf[:0]
	dropping := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if !dropping {
			// The newline counts towards the limit; a line that ends at
			// end of input is counted as if it had one.
			total := len(lr.buf) + len(chunk)
			if err != nil && err != bufio.ErrBufferFull {
				total++
			}
			if total > lr.limitBytes {
				dropping = true
				lr.buf = lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if dropping {
				return nil, errLineTooLong
			}
			return trimEOL(lr.buf), nil
		case err == bufio.ErrBufferFull:
			continue
		default:
			if dropping {
				return nil, errLineTooLong
			}
			if len(lr.buf) > 0 {
				return trimEOL(lr.buf), nil
			}
			return nil, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'})
}

// ServeStdio reads requests from in and writes answers to out until in ends
// or ctx is cancelled (SIGTERM), then aborts the calls in flight and returns
// within the shutdown time.
//
// At the end of in, the calls in flight may finish and answer until shortly
// before Settings.Shutdown; the rest are cancelled and get no answer. When
// ctx is cancelled every call is cancelled at once. Both return nil; an
// error is returned when reading in fails or writing out fails.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	end := s.startServing()
	defer end()
	w := newStdioWriter(out, s.waits)
	ss := newSession(s, callerLocal, w)

	readDone := make(chan error, 1)
	go func() { readDone <- readLines(ss, in) }()

	margin := shutdownMargin(s.set.Shutdown)
	select {
	case <-ctx.Done():
		ss.stopAccepting()
		ss.cancelAll()
		w.stop(s.set.Shutdown - margin/2)
		return w.writeErr()
	case err := <-readDone:
		writerDeadline, stopWriter := s.waits.timer(s.set.Shutdown - margin/2)
		defer stopWriter()
		callsDeadline, stopCalls := s.waits.timer(s.set.Shutdown - margin)
		defer stopCalls()
		ss.stopAccepting()
		ss.waitCalls(ctx, callsDeadline)
		ss.cancelAll()
		w.stopAt(writerDeadline)
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("mcp: reading the input: %w", err)
		}
		return w.writeErr()
	case <-w.failed:
		ss.stopAccepting()
		ss.cancelAll()
		w.stop(0)
		return w.writeErr()
	}
}

// readLines reads and handles lines until the input ends.
func readLines(ss *session, in io.Reader) error {
	lr := newLineReader(in, maxLineBytes)
	for {
		line, err := lr.next()
		if err == errLineTooLong {
			ss.srv.log.Warn(eventLineTooLong, "limit_bytes", maxLineBytes)
			continue
		}
		if err != nil {
			return err
		}
		if ss.isClosing() {
			return nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ss.handleMessage(line)
	}
}

// stdioWriter writes one whole line per answer, written and flushed by the
// goroutine that produced it while it holds wlock (a channel of one, so
// that shutdown can wait for it with a deadline). Writing in place of
// handing the answer to a writer goroutine spares a wake-up per answer.
type stdioWriter struct {
	wlock    chan struct{}
	w        *bufio.Writer
	stopped  bool          // guarded by wlock: later answers are dropped
	failed   chan struct{} // closed when a write failed
	failOnce sync.Once
	err      error
	waits    waits
}

func newStdioWriter(out io.Writer, waits waits) *stdioWriter {
	return &stdioWriter{
		waits:  waits,
		wlock:  make(chan struct{}, 1),
		w:      bufio.NewWriterSize(out, 64<<10),
		failed: make(chan struct{}),
	}
}

func (w *stdioWriter) writeErr() error {
	select {
	case <-w.failed:
		return w.err
	default:
		return nil
	}
}

// write writes one answer as a whole line, unless the writer was stopped
// or has failed, or keep reports false.
func (w *stdioWriter) write(_ []byte, gate answerGate, head, tail []byte) {
	w.wlock <- struct{}{}
	defer func() { <-w.wlock }()
	if w.stopped {
		return
	}
	if !gate.keep() {
		return
	}
	w.w.Write(head)
	w.w.Write(tail)
	if err := w.w.Flush(); err != nil {
		w.stopped = true
		w.failOnce.Do(func() {
			w.err = fmt.Errorf("mcp: writing the output: %w", err)
			close(w.failed)
		})
	}
}

// stop waits for an answer being written, for d at most, and drops every
// later one.
func (w *stdioWriter) stop(d time.Duration) {
	deadline, stop := w.waits.timer(d)
	defer stop()
	w.stopAt(deadline)
}

func (w *stdioWriter) stopAt(deadline <-chan time.Time) {
	select {
	case w.wlock <- struct{}{}:
		w.stopped = true
		<-w.wlock
	case <-deadline:
	}
}
