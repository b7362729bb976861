package metrics

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
)

// ContentType is the media type of the text exposition format 0.0.4.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// WriteTo writes every family in the text exposition format (0.0.4): the
// counted families in a fixed order, then the gauges read now.
func (m *Metrics) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	b.Grow(16 << 10)
	header(&b, "rypsok_build_info", "gauge", "Always 1: the version of rypsok and of Go it was built with.")
	b.WriteString(`rypsok_build_info{version="`)
	escapeLabel(&b, m.set.Version)
	b.WriteString(`",goversion="`)
	escapeLabel(&b, m.set.GoVersion)
	b.WriteString("\"} 1\n")
	for _, f := range m.all {
		f.write(&b)
	}
	m.writeGauges(&b)
	return b.WriteTo(w)
}

func header(b *bytes.Buffer, name, typ, help string) {
	b.WriteString("# HELP ")
	b.WriteString(name)
	b.WriteByte(' ')
	escapeHelp(b, help)
	b.WriteString("\n# TYPE ")
	b.WriteString(name)
	b.WriteByte(' ')
	b.WriteString(typ)
	b.WriteByte('\n')
}

// escapeHelp escapes a backslash and a line feed, as 0.0.4 requires.
func escapeHelp(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteByte(c)
		}
	}
}

// escapeLabel escapes a backslash, a double quote and a line feed.
func escapeLabel(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteByte(c)
		}
	}
}

// labels writes {a="x",b="y"} with extra appended (le of a bucket); nothing
// when there is no label.
func labels(b *bytes.Buffer, names, values []string, extraName, extraValue string) {
	if len(names) == 0 && extraName == "" {
		return
	}
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(n)
		b.WriteString(`="`)
		escapeLabel(b, values[i])
		b.WriteByte('"')
	}
	if extraName != "" {
		if len(names) > 0 {
			b.WriteByte(',')
		}
		b.WriteString(extraName)
		b.WriteString(`="`)
		b.WriteString(extraValue)
		b.WriteByte('"')
	}
	b.WriteByte('}')
}

func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'g', -1, 64)
}

func (f *family) write(b *bytes.Buffer) {
	header(b, f.name, f.typ, f.help)
	for _, s := range f.sorted() {
		if f.boundsMs == nil {
			b.WriteString(f.name)
			labels(b, f.labels, s.values, "", "")
			b.WriteByte(' ')
			b.WriteString(strconv.FormatInt(s.n.Load(), 10))
			b.WriteByte('\n')
			continue
		}
		// Read the buckets once: count is their sum, so the +Inf bucket
		// and _count agree even while observations arrive.
		var cum int64
		for i, bound := range f.boundsMs {
			cum += s.buckets[i].Load()
			b.WriteString(f.name)
			b.WriteString("_bucket")
			labels(b, f.labels, s.values, "le", seconds(bound))
			b.WriteByte(' ')
			b.WriteString(strconv.FormatInt(cum, 10))
			b.WriteByte('\n')
		}
		cum += s.buckets[len(f.boundsMs)].Load()
		b.WriteString(f.name)
		b.WriteString("_bucket")
		labels(b, f.labels, s.values, "le", "+Inf")
		b.WriteString(" " + strconv.FormatInt(cum, 10) + "\n")
		b.WriteString(f.name + "_sum")
		labels(b, f.labels, s.values, "", "")
		b.WriteString(" " + seconds(s.sumMs.Load()) + "\n")
		b.WriteString(f.name + "_count")
		labels(b, f.labels, s.values, "", "")
		b.WriteString(" " + strconv.FormatInt(cum, 10) + "\n")
	}
}

// gauge writes one family of one unlabelled sample.
func gauge(b *bytes.Buffer, name, typ, help, value string) {
	header(b, name, typ, help)
	b.WriteString(name + " " + value + "\n")
}

func (m *Metrics) writeGauges(b *bytes.Buffer) {
	type work struct {
		name  string
		probe func() (int, int)
	}
	var works []work
	for _, w := range []work{{"outbound", m.set.Outbound}, {"fetch", m.set.Fetches}, {"parse", m.set.Parses}} {
		if w.probe != nil {
			works = append(works, w)
		}
	}
	if len(works) > 0 {
		limits := make([]int, len(works))
		header(b, "rypsok_in_flight", "gauge", "Work in flight now: outbound engine requests, page fetches, extractions.")
		for i, w := range works {
			n, limit := w.probe()
			limits[i] = limit
			b.WriteString(`rypsok_in_flight{work="` + w.name + `"} ` + strconv.Itoa(n) + "\n")
		}
		header(b, "rypsok_in_flight_limit", "gauge", "The configured bound of each kind of work in flight (limits.*_in_flight).")
		for i, w := range works {
			b.WriteString(`rypsok_in_flight_limit{work="` + w.name + `"} ` + strconv.Itoa(limits[i]) + "\n")
		}
	}
	if m.set.Sessions != nil {
		gauge(b, "rypsok_http_sessions_open", "gauge", "Open sessions of the handshake-based revisions on the HTTP listener.", strconv.Itoa(m.set.Sessions()))
	}
	gauge(b, "rypsok_ready", "gauge", "1 while /readyz answers 200, else 0.", boolDigit(m.Ready()))
	gauge(b, "rypsok_metrics_series_dropped_total", "counter", "Series not created because their family was full (a defect to report).", strconv.FormatInt(m.dropped.Load(), 10))
	if m.set.MemoryLimit != nil {
		gauge(b, "rypsok_memory_limit_bytes", "gauge", "The soft memory limit the process runs under (GOMEMLIMIT, or the one derived from the configuration).", strconv.FormatInt(m.set.MemoryLimit(), 10))
	}
	gauge(b, "process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch, in seconds.",
		strconv.FormatFloat(float64(m.start.UnixMilli())/1000, 'f', 3, 64))
	if rss, ok := residentBytes(); ok {
		gauge(b, "process_resident_memory_bytes", "gauge", "Resident memory of the process, in bytes.", strconv.FormatInt(rss, 10))
	}
	gauge(b, "go_goroutines", "gauge", "Goroutines that exist now.", strconv.Itoa(runtime.NumGoroutine()))
	gauge(b, "go_memstats_heap_inuse_bytes", "gauge", "Bytes in heap spans in use (objects and their unused room).", strconv.FormatUint(heapInUse(), 10))
}

func boolDigit(v bool) string {
	if v {
		return "1"
	}
	return "0"
}

// heapInUse is HeapInuse of runtime.MemStats, read without stopping the
// world.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			n += x.Value.Uint64()
		}
	}
	return n
}

// residentBytes reads the resident set from /proc/self/statm (Linux);
// false elsewhere.
func residentBytes() (int64, bool) {
	f, err := os.Open("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var buf [128]byte
	n, _ := io.ReadFull(f, buf[:])
	fields := strings.Fields(string(buf[:n]))
	if len(fields) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil || pages < 0 {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
