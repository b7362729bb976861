// Command demo runs rypsok's tutorial session offline: it starts a loopback
// stand-in of a MediaWiki site (search API, pages, robots.txt) over HTTPS,
// writes a configuration whose wikipedia engine points at it, starts
// `rypsok serve` as an agent runtime would, and shows each call and answer.
//
// Step 3 is a code search, answered by stand-ins of the Stack Exchange and
// GitHub search APIs on the same origin. Step 8 does the first search and
// page read against hostile content with two RSP security plugins
// configured (rsp.go).
//
// Usage: go run ./scripts/demo [-bin bin/rypsok]
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"

	"rypsok/scripts/standin"
)

func main() {
	servePlugin() // rsp.go: started as the demo's injection plugin, it answers one call and exits
	bin := flag.String("bin", "bin/rypsok", "the rypsok binary")
	flag.Parse()
	if err := run(*bin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(bin string, out io.Writer) error {
	dir, err := os.MkdirTemp("", "rypsok-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	site, err := standin.Start("127.0.0.1:0", dir, []net.IP{net.ParseIP("127.0.0.1")}, withPDF(standin.Both(standin.Wiki(articles()), standin.APIs(codeItems()))))
	if err != nil {
		return err
	}
	defer site.Close()

	config := fmt.Sprintf(`# The demo: a wikipedia engine, and the stackexchange and github engines
# of the code category, answered by a loopback stand-in, and an allow rule
# that admits that stand-in to web_fetch.
config_version = 1

[service]
user_agent_contact = "demo@example.invalid"

[egress]
allow = ["127.0.0.1"]

[engines.wikipedia]
type = "wikipedia"
categories = ["general", "science"]
base_url = "%[1]s/w/api.php"

[engines.stackexchange]
type = "stackexchange"
categories = ["code"]
base_url = "%[1]s"

[engines.github]
type = "github"
categories = ["code"]
base_url = "%[1]s"
`, site.URL)
	cfgPath := filepath.Join(dir, "rypsok.toml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o600); err != nil {
		return err
	}

	c, err := startClient(bin, cfgPath, site.CertFile, 0, out)
	if err != nil {
		return err
	}
	logs := &c.logs
	fmt.Fprintf(out, "rypsok demo: a stand-in MediaWiki site at %s, rypsok started from %s\n", site.URL, bin)
	if _, err := c.call("1. What does the server offer? (server/discover)", "server/discover", map[string]any{}); err != nil {
		return err
	}
	msg, err := c.tool("2. A search (web_search, answered by the stand-in's MediaWiki API)", "web_search",
		map[string]any{"query": "rust programming language", "max_results": 5})
	if err != nil {
		return err
	}
	first := firstResultURL(msg)
	if first == "" {
		return fmt.Errorf("the search returned no result (logs:\n%s)", logs.String())
	}
	code, err := c.tool("3. A code search (web_search, category code: the Stack Exchange and GitHub stand-ins answer)", "web_search",
		map[string]any{"query": "python asyncio timeout cancels the task", "category": "code", "max_results": 5})
	if err != nil {
		return err
	}
	if firstResultURL(code) == "" {
		return fmt.Errorf("the code search returned no result (logs:\n%s)", logs.String())
	}
	steps := []struct {
		title string
		args  map[string]any
	}{
		{"4. Read the first result (web_fetch: main content as Markdown; the hidden line and the chrome are left out)", map[string]any{"url": first}},
		{"5. A PDF on the same site (web_fetch: its text as Markdown, title from the document)", map[string]any{"url": site.URL + demoPDFPath, "max_chars": 600}},
		{"6. The cloud metadata address is refused before any request (denied, egress)", map[string]any{"url": "http://169.254.169.254/latest/meta-data/"}},
		{"7. A page the site's robots.txt disallows (denied, robots_txt)", map[string]any{"url": site.URL + "/private/notes"}},
	}
	for _, s := range steps {
		if _, err := c.tool(s.title, "web_fetch", s.args); err != nil {
			return err
		}
	}
	if _, err := c.tool("8. Engine health (engine_status)", "engine_status", map[string]any{}); err != nil {
		return err
	}
	if err := c.stop(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nrypsok exited 0 when its input ended. Its log (stderr, JSON lines) had %d lines, e.g.:\n", strings.Count(logs.String(), "\n"))
	for i, l := range strings.SplitN(logs.String(), "\n", 4) {
		if i < 3 && l != "" {
			fmt.Fprintf(out, "  %s\n", l)
		}
	}
	return rspStep(bin, 9, out) // rsp.go
}
