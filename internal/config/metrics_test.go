package config

import (
	"strings"
	"testing"
)

func TestServiceMetricsBind(t *testing.T) {
	c := mustLoad(t, "config_version = 1\n", nil)
	if c.Metrics.Bind != "" {
		t.Errorf("default bind %q, want off", c.Metrics.Bind)
	}
	if line := metricsLine(c); line != "service.metrics: bind=off" {
		t.Errorf("check line %q", line)
	}

	c = mustLoad(t, "config_version = 1\n[service.metrics]\nbind = \"127.0.0.1:9737\"\n", nil)
	if c.Metrics.Bind != "127.0.0.1:9737" {
		t.Errorf("bind %q", c.Metrics.Bind)
	}
	for _, w := range c.Warnings {
		if w.Key == "service.metrics.bind" {
			t.Errorf("a loopback bind warned: %s", w)
		}
	}
	found := false
	for _, line := range Report(c) {
		found = found || line == "service.metrics: bind=127.0.0.1:9737 paths=/metrics,/healthz,/readyz"
	}
	if !found {
		t.Errorf("check does not report the listener: %q", Report(c))
	}

	c = mustLoad(t, "config_version = 1\n[service.metrics]\nbind = \"0.0.0.0:9737\"\n", nil)
	warned := false
	for _, w := range c.Warnings {
		warned = warned || w.Key == "service.metrics.bind" && strings.Contains(w.What, "per caller")
	}
	if !warned {
		t.Errorf("a bind off loopback did not warn: %v", c.Warnings)
	}
}

func TestREQ_CFG_005_ServiceMetricsRefusals(t *testing.T) {
	mustRefuse(t, "config_version = 1\n[service.metrics]\nbind = \"localhost:9737\"\n", nil,
		"service.metrics.bind: expected an address and port such as 127.0.0.1:9737", "(line 3, column 8)")
	mustRefuse(t, "config_version = 1\n[service.metrics]\nbind = 9737\n", nil,
		"service.metrics.bind: expected an address and port such as 127.0.0.1:9737, found an integer")
	mustRefuse(t, "config_version = 1\n[service.metrics]\nbind = \"127.0.0.1:9737\"\npath = \"/m\"\n", nil,
		"service.metrics.path")
	mustRefuse(t, "config_version = 1\n[service.http]\nbind = \"127.0.0.1:8737\"\n[service.metrics]\nbind = \"127.0.0.1:8737\"\n", nil,
		"service.metrics.bind: the metrics listener needs an address and port of its own")
	mustRefuse(t, "config_version = 1\n[service.metrics]\nbind = \"127.0.0.1:8737\"\n", nil,
		"needs an address and port of its own; service.http.bind has this one")
	mustRefuse(t, "config_version = 1\n[service]\nmetrics = true\n", nil, "service.metrics: expected a table")
}
