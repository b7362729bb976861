package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// client is one `rypsok serve` the demo talks to over stdio, as a runtime
// would: each call is one line of the stateless revision, shown with its
// answer.
type client struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines *bufio.Reader
	logs  bytes.Buffer
	out   io.Writer
	id    int
}

// demoMeta is the _meta every request carries.
var demoMeta = map[string]any{
	"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
	"io.modelcontextprotocol/clientInfo":         map[string]string{"name": "demo", "version": "1"},
	"io.modelcontextprotocol/clientCapabilities": map[string]any{},
}

// startClient starts bin serve with the configuration at cfgPath, trusting
// the stand-in's certificate in certFile; request ids start after firstID.
func startClient(bin, cfgPath, certFile string, firstID int, out io.Writer) (*client, error) {
	c := &client{cmd: exec.Command(bin, "serve", "--config", cfgPath), out: out, id: firstID}
	c.cmd.Env = append(os.Environ(), "SSL_CERT_FILE="+certFile, "SSL_CERT_DIR=")
	c.cmd.Stderr = &c.logs
	c.stdin, _ = c.cmd.StdinPipe()
	stdout, _ := c.cmd.StdoutPipe()
	if err := c.cmd.Start(); err != nil {
		return nil, err
	}
	c.lines = bufio.NewReader(stdout)
	return c, nil
}

// call sends one request, prints it and the answer (a tool result as
// isError and structuredContent), and returns the answer.
func (c *client) call(title, method string, params map[string]any) (map[string]any, error) {
	c.id++
	params["_meta"] = demoMeta
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	fmt.Fprintf(c.out, "\n── %s\n→ %s\n", title, req)
	if _, err := c.stdin.Write(append(req, '\n')); err != nil {
		return nil, err
	}
	line, err := c.lines.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("no answer (logs:\n%s)", c.logs.String())
	}
	var msg map[string]any
	if err := json.Unmarshal(line, &msg); err != nil {
		return nil, err
	}
	shown := msg["result"]
	if r, ok := shown.(map[string]any); ok && r["structuredContent"] != nil {
		shown = map[string]any{"isError": r["isError"], "structuredContent": r["structuredContent"]}
	}
	if shown == nil {
		shown = msg["error"]
	}
	fmt.Fprintf(c.out, "← %s\n", indent(shown))
	return msg, nil
}

// tool calls one tool; an answer that is not a tool result is an error.
func (c *client) tool(title, name string, args map[string]any) (map[string]any, error) {
	msg, err := c.call(title, "tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	if r, _ := msg["result"].(map[string]any); r == nil || r["structuredContent"] == nil {
		return nil, fmt.Errorf("not a tool result (logs:\n%s)", c.logs.String())
	}
	return msg, nil
}

// stop ends the input and waits for rypsok to exit 0.
func (c *client) stop() error {
	c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		return fmt.Errorf("rypsok exited with %v (logs:\n%s)", err, c.logs.String())
	}
	return nil
}

func firstResultURL(msg map[string]any) string {
	r, _ := msg["result"].(map[string]any)
	sc, _ := r["structuredContent"].(map[string]any)
	rs, _ := sc["results"].([]any)
	if len(rs) == 0 {
		return ""
	}
	first, _ := rs[0].(map[string]any)
	u, _ := first["url"].(string)
	return u
}

// indent renders v as indented JSON without HTML escaping, as rypsok writes
// it.
func indent(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}
