// Command measure-memory measures the resident memory of rypsok serve: at
// rest, and at its peak while four pages of -page-mib MiB are fetched at
// once from four loopback hosts (127.0.0.1 to 127.0.0.4), with the default
// concurrency (four fetches, two parses). It prints each run's peak beside
// the worst case `rypsok check` estimates for the same configuration, which
// must stay above every measured peak.
//
// With -pdf pages the pages are PDFs of the same size, of uncompressed text
// pages that hold more characters than the reader keeps (docs/pdf.md); with
// -pdf dense each is one compressed page that decodes to 7 MiB of text,
// the costliest PDF whatever the file's size.
//
// Usage: go run ./scripts/measure-memory [-bin bin/rypsok] [-page-mib 5] [-runs 5] [-pdf pages|dense]
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"rypsok/scripts/standin"
)

func main() {
	bin := flag.String("bin", "bin/rypsok", "the rypsok binary")
	pageMiB := flag.Float64("page-mib", 5, "size of each page in MiB (fetch.max_bytes is set just above it)")
	runs := flag.Int("runs", 5, "fresh processes to measure")
	asPDF := flag.String("pdf", "", "serve PDFs instead of HTML pages: pages or dense")
	flag.Parse()
	if err := run(*bin, *pageMiB, *runs, *asPDF, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "measure-memory:", err)
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

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func run(bin string, pageMiB float64, runs int, asPDF string, w io.Writer) error {
	dir, err := os.MkdirTemp("", "rypsok-mem-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	pageBytes := int(pageMiB * (1 << 20))
	maxBytes := pageBytes + 64<<10
	var urls []string
	var bundle bytes.Buffer
	for i := 1; i <= 4; i++ {
		ip := fmt.Sprintf("127.0.0.%d", i)
		page := standin.LargePage(pageBytes)
		if asPDF != "" {
			page = largePDF(pageBytes, asPDF == "dense")
		}
		s, err := standin.Start(ip+":0", dir, []net.IP{net.ParseIP(ip)}, page)
		if err != nil {
			return err
		}
		defer s.Close()
		pem, _ := os.ReadFile(s.CertFile)
		bundle.Write(pem)
		urls = append(urls, s.URL+"/page")
	}
	certs := filepath.Join(dir, "roots.pem")
	os.WriteFile(certs, bundle.Bytes(), 0o600)
	cfg := filepath.Join(dir, "rypsok.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`config_version = 1
[fetch]
max_bytes = %d
[egress]
allow = ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"]
[engines.wikipedia]
type = "wikipedia"
categories = ["general"]
`, maxBytes)), 0o600)

	// The estimate check prints for this configuration.
	var checkErr bytes.Buffer
	cmd := exec.Command(bin, "check", "--config", cfg)
	cmd.Stderr = &checkErr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("check: %v\n%s", err, checkErr.String())
	}
	est := regexp.MustCompile(`memory: worst case about (\d+) MiB \(.*?\)`).FindStringSubmatch(checkErr.String())
	if est == nil {
		return fmt.Errorf("no memory line in check's report")
	}
	kind := "pages"
	if asPDF != "" {
		kind = asPDF + " PDFs"
	}
	fmt.Fprintf(w, "four %.1f MiB %s fetched at once from four loopback hosts, %d runs\n", pageMiB, kind, runs)
	fmt.Fprintf(w, "check: %s\n", est[0])

	var peaks, idles []float64
	for r := 0; r < runs; r++ {
		cmd := exec.Command(bin, "serve", "--config", cfg)
		cmd.Env = append([]string{"SSL_CERT_FILE=" + certs, "PATH=" + os.Getenv("PATH")}, extraEnv()...)
		in, _ := cmd.StdinPipe()
		outPipe, _ := cmd.StdoutPipe()
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			return err
		}
		out := bufio.NewReaderSize(outPipe, 1<<20)
		fmt.Fprintf(in, `{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{%s}}`+"\n", meta)
		if _, err := out.ReadString('\n'); err != nil {
			return err
		}
		time.Sleep(200 * time.Millisecond)
		idle := statusKiB(cmd.Process.Pid, "VmRSS")
		for i, u := range urls {
			fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"web_fetch","arguments":{"url":%q,"max_chars":500},%s}}`+"\n", i+1, u, meta)
		}
		for range urls {
			line, err := out.ReadString('\n')
			if err != nil {
				return err
			}
			if !strings.Contains(line, `"isError":false`) {
				return fmt.Errorf("a fetch failed: %.300s", line)
			}
		}
		peak := statusKiB(cmd.Process.Pid, "VmHWM")
		in.Close()
		cmd.Wait()
		peaks = append(peaks, float64(peak)/1024)
		idles = append(idles, float64(idle)/1024)
		fmt.Fprintf(w, "run %d: idle %.1f MiB, peak %.1f MiB\n", r+1, float64(idle)/1024, float64(peak)/1024)
	}
	sort.Float64s(peaks)
	sort.Float64s(idles)
	limit, _ := strconv.Atoi(est[1])
	verdict := "above every measured peak"
	if float64(limit) < peaks[len(peaks)-1] {
		verdict = "BELOW a measured peak: raise the constants in internal/config/check.go"
	}
	fmt.Fprintf(w, "idle %.1f to %.1f MiB; peak %.1f to %.1f MiB (median %.1f); estimate %d MiB, %s\n",
		idles[0], idles[len(idles)-1], peaks[0], peaks[len(peaks)-1], peaks[len(peaks)/2], limit, verdict)
	return nil
}

// extraEnv passes GOGC and GOMEMLIMIT through, for experiments.
func extraEnv() []string {
	var out []string
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(k); ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}
