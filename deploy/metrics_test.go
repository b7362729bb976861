package deploy

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"rypsok/internal/metrics"
	"rypsok/internal/metrics/metricstest"
)

// The metrics listener in the deployment files: the port, the probes, who
// may scrape, and the Grafana dashboard.

// metricsPort is [service.metrics] bind's port in the ConfigMap.
const metricsPort = 9737

// TestKubernetesMetricsListener: the ConfigMap turns the listener on, the
// container names its port metrics, the Service exposes it, and the
// NetworkPolicy admits it from the monitoring namespace alone while the MCP
// port stays the proxy's.
func TestKubernetesMetricsListener(t *testing.T) {
	objs := manifests(t)
	toml := getString(objs["ConfigMap"][0], "data", "rypsok.toml")
	if !strings.Contains(toml, "[service.metrics]\nbind = \"0.0.0.0:9737\"") {
		t.Errorf("rypsok.toml does not turn the metrics listener on at 0.0.0.0:9737:\n%s", toml)
	}
	c := getList(objs["Deployment"][0], "spec", "template", "spec", "containers")[0]
	named := false
	for _, p := range getList(c, "ports") {
		named = named || getString(p, "name") == "metrics" && get(p, "containerPort") == metricsPort
	}
	if !named {
		t.Errorf("the container has no port metrics (%d): %v", metricsPort, getList(c, "ports"))
	}
	exposed := false
	for _, p := range getList(objs["Service"][0], "spec", "ports") {
		exposed = exposed || getString(p, "name") == "metrics" && get(p, "port") == metricsPort && getString(p, "targetPort") == "metrics"
	}
	if !exposed {
		t.Errorf("the Service does not expose the port metrics")
	}
	// Who the NetworkPolicy admits to each port.
	admits := map[int][]string{}
	for _, rule := range getList(objs["NetworkPolicy"][0], "spec", "ingress") {
		var from []string
		for _, peer := range getList(rule, "from") {
			ns := getString(peer, "namespaceSelector", "matchLabels", "kubernetes.io/metadata.name")
			if ns == "" || get(peer, "ipBlock") != nil || get(peer, "podSelector") != nil {
				t.Errorf("an ingress peer other than one namespace: %v", peer)
			}
			from = append(from, ns)
		}
		ports := getList(rule, "ports")
		if len(ports) == 0 || len(from) == 0 {
			t.Errorf("an ingress rule without ports or peers admits too much: %v", rule)
		}
		for _, p := range ports {
			port, _ := get(p, "port").(int)
			admits[port] = append(admits[port], from...)
		}
	}
	if got := strings.Join(admits[metricsPort], ","); got != "monitoring" {
		t.Errorf("the metrics port admits %q, want the monitoring namespace alone", got)
	}
	if got := strings.Join(admits[8737], ","); got != "ingress-nginx" {
		t.Errorf("the MCP port admits %q, want the proxy's namespace alone", got)
	}
	if len(admits) != 2 {
		t.Errorf("ingress admits ports %v, want 8737 and %d", admits, metricsPort)
	}
}

// TestServiceMonitorSelectsTheService: the optional ServiceMonitor (not in
// the kustomization: it needs the operator's CRDs) selects the Service by
// its labels and scrapes its port metrics at /metrics.
func TestServiceMonitorSelectsTheService(t *testing.T) {
	raw, err := os.ReadFile("kubernetes/optional/servicemonitor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := parseYAMLDocuments(string(raw))
	if err != nil || len(docs) != 1 {
		t.Fatalf("servicemonitor.yaml: %v (%d objects)", err, len(docs))
	}
	sm := docs[0]
	if getString(sm, "kind") != "ServiceMonitor" || getString(sm, "apiVersion") != "monitoring.coreos.com/v1" || getString(sm, "metadata", "namespace") != "rypsok" {
		t.Fatalf("not a ServiceMonitor in rypsok: %v", sm)
	}
	svc := manifests(t)["Service"][0]
	labels, _ := get(svc, "metadata", "labels").(map[string]any)
	sel, _ := get(sm, "spec", "selector", "matchLabels").(map[string]any)
	if len(sel) == 0 {
		t.Fatal("the ServiceMonitor selects no labels")
	}
	for k, v := range sel {
		if labels[k] != v {
			t.Errorf("the ServiceMonitor selects %s=%v, the Service has %v", k, v, labels[k])
		}
	}
	eps := getList(sm, "spec", "endpoints")
	if len(eps) != 1 || getString(eps[0], "port") != "metrics" || getString(eps[0], "path") != "/metrics" {
		t.Errorf("endpoints %v, want the port metrics at /metrics", eps)
	}
}

// exportedNames are the names a query may use: every family rypsok
// writes (with every probe set), and a histogram's _bucket, _sum and
// _count.
func exportedNames(t *testing.T) map[string]string {
	t.Helper()
	probe := func() (int, int) { return 0, 1 }
	m := metrics.New(metrics.Settings{
		Version: "0", GoVersion: "go", Now: func() time.Time { return time.Unix(0, 0) },
		Outbound: probe, Fetches: probe, Parses: probe,
		Sessions: func() int { return 0 }, MemoryLimit: func() int64 { return 1 },
	})
	var b bytes.Buffer
	m.WriteTo(&b)
	fs, err := metricstest.Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	names := metricstest.Names(fs)
	// The resident set is read from /proc and written where it exists.
	names["process_resident_memory_bytes"] = "gauge"
	return names
}

// metricName finds the metric names in a PromQL expression: identifiers
// not followed by "(" (functions), not after "by (" or inside braces
// (labels), not a keyword.
var (
	promIdent = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	promDrop  = regexp.MustCompile(`\{[^}]*\}|"[^"]*"|\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)|\[[^\]]*\]`)
)

func metricNames(expr string) []string {
	plain := promDrop.ReplaceAllString(expr, " ")
	var out []string
	for _, loc := range promIdent.FindAllStringIndex(plain, -1) {
		id := plain[loc[0]:loc[1]]
		rest := strings.TrimLeft(plain[loc[1]:], " ")
		if strings.HasPrefix(rest, "(") {
			continue // a function or an aggregation
		}
		switch id {
		case "and", "or", "unless", "bool", "offset", "vector", "e", "Inf", "NaN":
			continue
		}
		if loc[0] > 0 && (plain[loc[0]-1] >= '0' && plain[loc[0]-1] <= '9' || plain[loc[0]-1] == '.') {
			continue // the exponent of a number such as 1e-9
		}
		out = append(out, id)
	}
	return out
}

// TestGrafanaDashboardNamesExportedMetrics: every expression of
// deploy/grafana/rypsok.json names at least one metric, and every name it
// uses is one rypsok exports; the dashboard covers what an operator
// watches.
func TestGrafanaDashboardNamesExportedMetrics(t *testing.T) {
	raw, err := os.ReadFile("grafana/rypsok.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Title  string
		UID    string
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
		Templating struct {
			List []struct{ Name, Query string }
		}
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("rypsok.json: %v", err)
	}
	if dash.Title == "" || dash.UID == "" || len(dash.Panels) == 0 {
		t.Fatalf("the dashboard lacks a title, a uid or panels")
	}
	exported := exportedNames(t)
	used := map[string]bool{}
	check := func(where, expr string) {
		names := metricNames(expr)
		if len(names) == 0 {
			t.Errorf("%s: %q names no metric", where, expr)
		}
		for _, n := range names {
			used[n] = true
			if exported[n] == "" {
				t.Errorf("%s: %q names %s, which rypsok does not export", where, expr, n)
			}
		}
	}
	for _, p := range dash.Panels {
		if p.Title == "" || len(p.Targets) == 0 {
			t.Errorf("a panel without a title or a query: %+v", p)
		}
		for _, tg := range p.Targets {
			check("panel "+p.Title, tg.Expr)
		}
	}
	for _, v := range dash.Templating.List {
		if strings.HasPrefix(v.Query, "label_values(") {
			metric, _, _ := strings.Cut(strings.TrimPrefix(v.Query, "label_values("), ",")
			check("variable "+v.Name, metric)
		}
	}
	// What the issue asks the dashboard to show.
	for _, want := range []string{
		"rypsok_tool_calls_total", "rypsok_tool_errors_total", "rypsok_tool_call_duration_seconds_bucket",
		"rypsok_engine_requests_total", "rypsok_engine_circuit_state", "rypsok_fetch_refused_total",
		"rypsok_rsp_plugin_calls_total", "rypsok_rsp_plugin_failures_total",
		"process_resident_memory_bytes", "rypsok_memory_limit_bytes",
	} {
		if !used[want] {
			t.Errorf("no panel shows %s", want)
		}
	}
	var unused []string
	for n, typ := range exported {
		if typ != "histogram" && !used[n] && n != "rypsok_metrics_series_dropped_total" {
			unused = append(unused, n)
		}
	}
	sort.Strings(unused)
	t.Logf("families no panel shows: %v", unused)
}

func TestMetricNamesOfAnExpression(t *testing.T) {
	got := metricNames(`sum by (le, tool) (rate(rypsok_x_bucket{job=~"$job",tool="a b"}[5m])) / clamp_min(sum(rate(b_total[5m])), 1e-9) or vector(0)`)
	if strings.Join(got, ",") != "rypsok_x_bucket,b_total" {
		t.Errorf("names %v", got)
	}
	got = metricNames(`rypsok_in_flight{job=~"$job"} / on (instance, work) clamp_min(rypsok_in_flight_limit, 1)`)
	if strings.Join(got, ",") != "rypsok_in_flight,rypsok_in_flight_limit" {
		t.Errorf("names %v", got)
	}
}

// TestReadmeAlertRulesNameExportedMetrics: the example alert rules of the
// README's Operating section name metrics rypsok exports, and there are
// at least three.
func TestReadmeAlertRulesNameExportedMetrics(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	exported := exportedNames(t)
	rules := 0
	for _, line := range strings.Split(string(raw), "\n") {
		expr, ok := strings.CutPrefix(strings.TrimSpace(line), "expr: ")
		if !ok {
			continue
		}
		rules++
		names := metricNames(expr)
		if len(names) == 0 {
			t.Errorf("README rule %q names no metric", expr)
		}
		for _, n := range names {
			if exported[n] == "" {
				t.Errorf("README rule %q names %s, which rypsok does not export", expr, n)
			}
		}
	}
	if rules < 3 {
		t.Errorf("the README has %d example alert rules, want 3", rules)
	}
}
