// Command bench-http measures rypsok in network mode as a team's agents
// see it: engine_status calls per second, with the median and 99th
// percentile latency, over -conns keep-alive HTTP/1.1 connections on
// loopback (each its own caller, so that no caller's rate limit is
// reached), the same over one stdio stream with -conns calls in flight,
// the resident memory of the idle listener, and the resident memory after
// a hostile run (connect/close cycles, connections held open past
// max_connections, 100 KiB header blocks, 10 MiB bodies, unfinished
// header blocks).
//
// Usage: go run ./scripts/bench-http [-bin bin/rypsok] [-transport http|stdio]
// [-conns 8] [-calls 5000] [-hostile=true] [-metrics off|on|both] [-rounds 3]
//
// -metrics on serves [service.metrics] beside the listener (scraped once a
// second, as a Prometheus would, only faster); -metrics both alternates
// off and on for -rounds rounds of the HTTP timed run alone (no hostile
// run, no sessions) and prints the median throughput of each and their
// ratio.
//
// The floors are scripts/http-floor (for -transport http) and
// scripts/stdio-floor (for -transport stdio): -bin accepts either.
package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

// A caller's window admits 6000 calls a minute (the ceiling of
// engine_status_per_minute); warm-up and timed calls stay below it.
const (
	perMinute = 6000
	warmup    = 200
)

func main() {
	bin := flag.String("bin", "bin/rypsok", "the rypsok binary, or a floor program")
	transport := flag.String("transport", "http", "http or stdio")
	conns := flag.Int("conns", 8, "connections (http) or calls in flight (stdio)")
	calls := flag.Int("calls", 5000, "timed calls per connection (http) or in all (stdio)")
	hostile := flag.Bool("hostile", true, "after the timed run, a hostile run and the RSS after it (http)")
	sessions := flag.Int("sessions", 256, "handshake sessions to open after the hostile run, for the cost of one (http; 0: none)")
	withMetrics := flag.String("metrics", "off", "off, on, or both (alternating rounds, http)")
	rounds := flag.Int("rounds", 3, "rounds of each with -metrics both")
	flag.Parse()
	var err error
	switch {
	case *transport == "stdio":
		err = benchStdio(*bin, *conns, *calls)
	case *withMetrics == "both":
		err = benchMetrics(*bin, *conns, *calls, *rounds)
	default:
		_, err = benchHTTP(*bin, *conns, *calls, *hostile, *sessions, *withMetrics == "on")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-http:", err)
		os.Exit(1)
	}
}

func statusKiB(pid int, field string) int {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, field+":") {
			n, _ := strconv.Atoi(strings.Fields(l)[1])
			return n
		}
	}
	return 0
}

func mib(kib int) float64 { return float64(kib) / 1024 }

func report(what string, lat []time.Duration, wall time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	fmt.Printf("%s: %.0f calls per second (%d in %.2f s), p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
		what, float64(len(lat))/wall.Seconds(), len(lat), wall.Seconds(), q(0.5), q(0.99), q(1))
}

func config(dir string, extra string) string {
	p := filepath.Join(dir, "rypsok.toml")
	os.WriteFile(p, []byte("config_version = 1\n[limits]\nengine_status_per_minute = "+strconv.Itoa(perMinute)+
		"\n[engines.wikipedia]\ntype = \"wikipedia\"\ncategories = [\"general\", \"science\"]\n"+extra), 0o600)
	return p
}

// benchMetrics alternates runs without and with the metrics listener and
// prints the median calls per second of each and their ratio.
func benchMetrics(bin string, conns, calls, rounds int) error {
	var off, on []float64
	for i := 0; i < rounds; i++ {
		for _, m := range []bool{false, true} {
			if i%2 == 1 {
				m = !m // off first in even rounds, on first in odd ones
			}
			fmt.Printf("-- round %d, metrics %v\n", i+1, m)
			rate, err := benchHTTP(bin, conns, calls, false, 0, m)
			if err != nil {
				return err
			}
			if m {
				on = append(on, rate)
			} else {
				off = append(off, rate)
			}
		}
	}
	median := func(v []float64) float64 {
		sort.Float64s(v)
		return v[len(v)/2]
	}
	mOff, mOn := median(off), median(on)
	fmt.Printf("engine_status calls per second, median of %d rounds: metrics off %.0f, on %.0f, on/off %.3f\n", rounds, mOff, mOn, mOn/mOff)
	return nil
}

func benchHTTP(bin string, conns, calls int, hostile bool, sessions int, withMetrics bool) (float64, error) {
	if warmup+calls > perMinute {
		return 0, fmt.Errorf("-calls above %d would reach the rate limit", perMinute-warmup)
	}
	dir, err := os.MkdirTemp("", "rypsok-bench-http-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	var extra strings.Builder
	extra.WriteString("[service.http]\nbind = \"127.0.0.1:0\"\nmax_sessions = 2048\n")
	if withMetrics {
		extra.WriteString("[service.metrics]\nbind = \"127.0.0.1:0\"\n")
	}
	env := []string{"PATH=" + os.Getenv("PATH")}
	tokens := make([]string, conns)
	for i := range tokens {
		b := make([]byte, 32)
		rand.Read(b)
		tokens[i] = hex.EncodeToString(b)
		fmt.Fprintf(&extra, "[[service.http.auth.callers]]\nid = \"c%d\"\ntoken_env = \"TOK_%d\"\n", i, i)
		env = append(env, fmt.Sprintf("TOK_%d=%s", i, tokens[i]))
	}
	cmd := exec.Command(bin, "serve", "--transport", "http", "--config", config(dir, extra.String()))
	cmd.Env = env
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	addr := make(chan string, 1)
	metricsAddr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["event"] == "listening" {
				addr <- m["address"].(string)
			}
			if m["event"] == "metrics_listening" {
				metricsAddr <- m["address"].(string)
			}
		}
	}()
	var a string
	select {
	case a = <-addr:
	case <-time.After(10 * time.Second):
		return 0, fmt.Errorf("no listening line")
	}
	if withMetrics {
		select {
		case m := <-metricsAddr:
			// A scrape a second while the calls run.
			stop := make(chan struct{})
			defer close(stop)
			go func() {
				c := &http.Client{Timeout: 5 * time.Second}
				for {
					select {
					case <-stop:
						return
					case <-time.After(time.Second):
					}
					if resp, err := c.Get("http://" + m + "/metrics"); err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}
			}()
		case <-time.After(10 * time.Second):
			return 0, fmt.Errorf("no metrics_listening line")
		}
	}
	url := "http://" + a + "/mcp"
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"engine_status","arguments":{},` + meta + `}}`
	call := func(c *http.Client, tok string) error {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "engine_status")
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || !strings.Contains(string(b), `"isError":false`) {
			return fmt.Errorf("engine_status: %v %d %.200s", err, resp.StatusCode, b)
		}
		return nil
	}
	clients := make([]*http.Client, conns)
	for i := range clients {
		clients[i] = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1, DisableCompression: true}}
	}
	time.Sleep(500 * time.Millisecond)
	fmt.Printf("idle resident memory of the listener before any call: %.1f MiB\n", mib(statusKiB(cmd.Process.Pid, "VmRSS")))
	// The first call builds the services (lazily); then the process idles.
	if err := call(clients[0], tokens[0]); err != nil {
		return 0, err
	}
	time.Sleep(500 * time.Millisecond)
	pid := cmd.Process.Pid
	fmt.Printf("idle resident memory of the listener after one call: %.1f MiB, %d descriptors open\n", mib(statusKiB(pid, "VmRSS")), fds(pid))

	timed := func(n int) ([]time.Duration, time.Duration, error) {
		lats := make([][]time.Duration, conns)
		errs := make(chan error, conns)
		var wg sync.WaitGroup
		t0 := time.Now()
		for i := 0; i < conns; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				for j := 0; j < n; j++ {
					s := time.Now()
					if err := call(clients[i], tokens[i]); err != nil {
						errs <- err
						return
					}
					lats[i] = append(lats[i], time.Since(s))
				}
			}(i)
		}
		wg.Wait()
		wall := time.Since(t0)
		close(errs)
		if err := <-errs; err != nil {
			return nil, 0, err
		}
		var all []time.Duration
		for _, l := range lats {
			all = append(all, l...)
		}
		return all, wall, nil
	}
	if _, _, err := timed(warmup - 1); err != nil {
		return 0, err
	}
	lat, wall, err := timed(calls)
	if err != nil {
		return 0, err
	}
	rate := float64(len(lat)) / wall.Seconds()
	report(fmt.Sprintf("engine_status over %d keep-alive HTTP/1.1 connections", conns), lat, wall)
	fmt.Printf("resident memory after the timed run: %.1f MiB (peak %.1f MiB)\n", mib(statusKiB(pid, "VmRSS")), mib(statusKiB(pid, "VmHWM")))
	if hostile {
		hostileRun(a, tokens[0])
		time.Sleep(time.Second)
		fmt.Printf("resident memory after the hostile run: %.1f MiB (peak %.1f MiB), %d descriptors open\n",
			mib(statusKiB(pid, "VmRSS")), mib(statusKiB(pid, "VmHWM")), fds(pid))
		if err := call(&http.Client{Timeout: 10 * time.Second}, tokens[1]); err != nil {
			return 0, fmt.Errorf("after the hostile run: %v", err)
		}
		fmt.Println("the listener still answers after the hostile run")
	}
	if sessions > 0 {
		before := statusKiB(pid, "VmRSS")
		c := &http.Client{Timeout: 10 * time.Second}
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
		for i := 0; i < sessions; i++ {
			req, _ := http.NewRequest("POST", url, strings.NewReader(init))
			req.Header.Set("Authorization", "Bearer "+tokens[i%conns])
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := c.Do(req)
			if err != nil {
				return 0, err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") == "" {
				return 0, fmt.Errorf("initialize %d: status %d", i, resp.StatusCode)
			}
		}
		time.Sleep(500 * time.Millisecond)
		after := statusKiB(pid, "VmRSS")
		fmt.Printf("%d handshake sessions open: resident memory %.1f MiB, %.1f KiB per session\n",
			sessions, mib(after), float64(after-before)/float64(sessions))
	}
	return rate, nil
}

func fds(pid int) int {
	ents, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(ents)
}

// hostileRun is the audit's client, bounded: 2000 connect/close cycles;
// 100 connections held open at once (above the 64 of LIM-H1), some with a
// lone byte; 200 requests with a 100 KiB header block; 100 bodies of 10
// MiB; 50 unfinished header blocks; all at once where they can be.
func hostileRun(addr, tok string) {
	var wg sync.WaitGroup
	dial := func() net.Conn {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			return nil
		}
		return c
	}
	for i := 0; i < 2000; i++ {
		if c := dial(); c != nil {
			c.Close()
		}
	}
	var held []net.Conn
	for i := 0; i < 100; i++ {
		if c := dial(); c != nil {
			if i%2 == 0 {
				c.Write([]byte("P"))
			}
			held = append(held, c)
		}
	}
	for i := 0; i < 50; i++ {
		if c := dial(); c != nil {
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nX-Slow: ", tok)
			held = append(held, c)
		}
	}
	for _, c := range held {
		c.Close()
	}
	big := strings.Repeat("h", 100<<10)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dial()
			if c == nil {
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(5 * time.Second))
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nX-Big: %s\r\n\r\n", tok, big)
			io.Copy(io.Discard, c)
		}()
		if i%16 == 15 {
			wg.Wait()
		}
	}
	wg.Wait()
	chunk := make([]byte, 64<<10)
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dial()
			if c == nil {
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(5 * time.Second))
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n", addr, tok)
			for sent := 0; sent < 10<<20; sent += len(chunk) {
				if _, err := fmt.Fprintf(c, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
					return
				}
			}
		}()
		if i%16 == 15 {
			wg.Wait()
		}
	}
	wg.Wait()
}

func benchStdio(bin string, inflight, calls int) error {
	if warmup+calls > perMinute {
		return fmt.Errorf("-calls above %d would reach the rate limit", perMinute-warmup)
	}
	dir, err := os.MkdirTemp("", "rypsok-bench-stdio-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(bin, "serve", "--config", config(dir, ""))
	cmd.Stderr = io.Discard
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { in.Close(); cmd.Wait() }()
	out := bufio.NewReaderSize(outPipe, 64<<10)
	line := func(id int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"engine_status","arguments":{},` + meta + `}}` + "\n"
	}
	// Answers come in any order: match them by id.
	run := func(n int) ([]time.Duration, time.Duration, error) {
		sent := make(map[int]time.Time, n)
		var mu sync.Mutex
		lat := make([]time.Duration, 0, n)
		errc := make(chan error, 1)
		window := make(chan struct{}, inflight)
		go func() {
			for got := 0; got < n; got++ {
				s, err := out.ReadString('\n')
				if err != nil {
					errc <- err
					return
				}
				var m struct {
					ID int `json:"id"`
				}
				json.Unmarshal([]byte(s), &m)
				mu.Lock()
				t, ok := sent[m.ID]
				mu.Unlock()
				if !ok {
					// A floor answers with a fixed id: match in order.
					mu.Lock()
					for id, tt := range sent {
						if !ok || tt.Before(t) {
							t, m.ID, ok = tt, id, true
						}
					}
					mu.Unlock()
				}
				mu.Lock()
				delete(sent, m.ID)
				mu.Unlock()
				lat = append(lat, time.Since(t))
				<-window
			}
			errc <- nil
		}()
		t0 := time.Now()
		w := bufio.NewWriter(in)
		for i := 0; i < n; i++ {
			window <- struct{}{}
			mu.Lock()
			sent[i+1] = time.Now()
			mu.Unlock()
			w.WriteString(line(i + 1))
			w.Flush()
		}
		err := <-errc
		return lat, time.Since(t0), err
	}
	if _, _, err := run(warmup); err != nil {
		return err
	}
	lat, wall, err := run(calls)
	if err != nil {
		return err
	}
	report(fmt.Sprintf("engine_status over one stdio stream, %d in flight", inflight), lat, wall)
	return nil
}
