// Command bench-stdio measures rypsok as an agent runtime sees it over
// stdio: the time from starting the process to the complete server/discover
// answer (median of -starts runs), the resident memory of an idle process,
// and tools/list round trips per second over one stream.
//
// Usage: go run ./scripts/bench-stdio [-bin bin/rypsok] [-starts 20] [-lists 20000]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

func main() {
	bin := flag.String("bin", "bin/rypsok", "the rypsok binary")
	starts := flag.Int("starts", 20, "process starts to time")
	lists := flag.Int("lists", 20000, "tools/list round trips to time")
	flag.Parse()
	if err := run(*bin, *starts, *lists, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-stdio:", err)
		os.Exit(1)
	}
}

type proc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func start(bin, cfg string) (*proc, error) {
	cmd := exec.Command(bin, "serve", "--config", cfg)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &proc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

func (p *proc) roundTrip(line string) (string, error) {
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		return "", err
	}
	return p.out.ReadString('\n')
}

func (p *proc) stop() error {
	p.in.Close()
	return p.cmd.Wait()
}

// statusKiB reads a field such as VmRSS or VmHWM of /proc/<pid>/status.
func statusKiB(pid int, field string) (int, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, field+":") {
			return strconv.Atoi(strings.Fields(l)[1])
		}
	}
	return 0, fmt.Errorf("%s not found", field)
}

func run(bin string, starts, lists int, w io.Writer) error {
	dir, err := os.MkdirTemp("", "rypsok-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	// The tutorial-1 configuration: one keyless engine.
	cfg := filepath.Join(dir, "rypsok.toml")
	os.WriteFile(cfg, []byte("config_version = 1\n[engines.wikipedia]\ntype = \"wikipedia\"\ncategories = [\"general\", \"science\"]\n"), 0o600)
	discover := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`

	var took []time.Duration
	for i := 0; i < starts; i++ {
		t0 := time.Now()
		p, err := start(bin, cfg)
		if err != nil {
			return err
		}
		ans, err := p.roundTrip(discover)
		took = append(took, time.Since(t0))
		if err != nil || !strings.Contains(ans, `"supportedVersions"`) {
			return fmt.Errorf("discover: %v %q", err, ans)
		}
		if err := p.stop(); err != nil {
			return err
		}
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	fmt.Fprintf(w, "start to complete server/discover answer: median %.2f ms, min %.2f ms, max %.2f ms (%d starts)\n",
		ms(took[len(took)/2]), ms(took[0]), ms(took[len(took)-1]), starts)

	p, err := start(bin, cfg)
	if err != nil {
		return err
	}
	if _, err := p.roundTrip(discover); err != nil {
		return err
	}
	time.Sleep(300 * time.Millisecond)
	rss, _ := statusKiB(p.cmd.Process.Pid, "VmRSS")
	fmt.Fprintf(w, "idle resident memory after server/discover: %.1f MiB\n", float64(rss)/1024)

	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta + `}}`
	t0 := time.Now()
	for i := 0; i < lists; i++ {
		ans, err := p.roundTrip(list)
		if err != nil || !strings.Contains(ans, `"web_search"`) {
			return fmt.Errorf("tools/list: %v", err)
		}
	}
	d := time.Since(t0)
	hwm, _ := statusKiB(p.cmd.Process.Pid, "VmHWM")
	fmt.Fprintf(w, "tools/list round trips over one stdio stream: %.0f per second (%d in %.2f s)\n", float64(lists)/d.Seconds(), lists, d.Seconds())
	fmt.Fprintf(w, "peak resident memory of that process: %.1f MiB\n", float64(hwm)/1024)
	return p.stop()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
