package config

import "net/netip"

// loadMetrics reads [service.metrics]. The bind must be an address and
// port other than the MCP listener's; off loopback it is allowed, with a
// warning, since the counts reveal traffic per caller.
func (l *loader) loadMetrics(s *section, c *Config) {
	w, v, ok := s.str("bind", "expected an address and port such as 127.0.0.1:9737")
	s.done()
	if !ok {
		return
	}
	ap, err := netip.ParseAddrPort(w)
	if err != nil {
		l.errAt(v, "service.metrics.bind", "expected an address and port such as 127.0.0.1:9737, found text of another form")
		return
	}
	if ap.Port() != 0 && w == c.HTTP.Bind {
		l.errAt(v, "service.metrics.bind", "the metrics listener needs an address and port of its own; service.http.bind has this one")
		return
	}
	c.Metrics.Bind = w
	if !ap.Addr().IsLoopback() {
		l.warn = append(l.warn, Warning{"service.metrics.bind", "the metrics listener is not on loopback: it has no authentication, and its counts reveal traffic volumes per caller, engine and plugin", "bind loopback, or admit only the monitoring system to the port (a NetworkPolicy)"})
	}
}

// metricsLine is check's line for [service.metrics].
func metricsLine(c *Config) string {
	if c.Metrics.Bind == "" {
		return "service.metrics: bind=off"
	}
	return "service.metrics: bind=" + c.Metrics.Bind + " paths=/metrics,/healthz,/readyz"
}
