package egress

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// endless produces zeros for ever and counts them.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += int64(len(p))
	return len(p), nil
}

func TestREQ_SEC_010_ReadBodyStopsAtTheLimit(t *testing.T) {
	cases := []struct {
		size, limit int
		tooLarge    bool
	}{
		{0, 0, false},
		{1, 0, true},
		{0, 10, false},
		{9, 10, false},
		{10, 10, false},
		{11, 10, true},
		{1000, 10, true},
		{4096, 4096, false},
		{4097, 4096, true},
		{100000, 100000, false},
		{100001, 100000, true},
		{5, -1, true},
		{0, -1, false},
	}
	for _, c := range cases {
		data := bytes.Repeat([]byte{'x'}, c.size)
		for name, r := range map[string]io.Reader{
			"whole":    bytes.NewReader(data),
			"one byte": iotest.OneByteReader(bytes.NewReader(data)),
			"data+EOF": iotest.DataErrReader(bytes.NewReader(data)),
		} {
			got, err := ReadBody(r, int64(c.limit))
			if c.tooLarge {
				if !errors.Is(err, ErrTooLarge) || got != nil {
					t.Errorf("%s size %d limit %d: %d bytes, %v; want ErrTooLarge", name, c.size, c.limit, len(got), err)
				}
				continue
			}
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%s size %d limit %d: %d bytes, %v", name, c.size, c.limit, len(got), err)
			}
			if c.limit >= 0 && cap(got) > c.limit {
				t.Errorf("%s size %d limit %d: buffer capacity %d beyond the limit", name, c.size, c.limit, cap(got))
			}
		}
	}
}

func TestREQ_SEC_010_ReadBodyAsksForAtMostLimitPlusOne(t *testing.T) {
	for _, limit := range []int64{0, 1, 100, 4096, 1 << 20} {
		src := &endless{}
		got, err := ReadBody(src, limit)
		if !errors.Is(err, ErrTooLarge) || got != nil {
			t.Fatalf("limit %d: %v", limit, err)
		}
		if src.n > limit+1 {
			t.Errorf("limit %d: %d bytes were produced, want at most %d", limit, src.n, limit+1)
		}
	}
}

func TestREQ_SEC_010_ReadBodyAllocatesAboutTheLimit(t *testing.T) {
	const limit = 4 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ReadBody(&endless{}, limit)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatal(err)
	}
	// Doubling from 4 KiB to the limit allocates less than twice the limit.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*limit+(1<<20) {
		t.Fatalf("allocated %d bytes for a limit of %d", alloc, limit)
	}
}

func TestReadBodyKeepsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom))
	got, err := ReadBody(r, 100)
	if !errors.Is(err, boom) || string(got) != "abc" {
		t.Fatalf("ReadBody = %q, %v; want the bytes before the error and the error", got, err)
	}
	got, err = ReadBody(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 3)
	if !errors.Is(err, boom) || got != nil {
		t.Fatalf("at the limit: %q, %v", got, err)
	}
	if _, err := ReadBody(stuck{}, 0); !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("a reader that answers nothing: %v", err)
	}
}

type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

func TestREQ_CMP_004_UserAgent(t *testing.T) {
	cases := []struct {
		version, contact, want string
	}{
		{"1.2.3", "ops@example.org", "rypsok/1.2.3 (+https://github.com/nabbisen/rypsok; ops@example.org)"},
		{"1.2.3", "", "rypsok/1.2.3 (+https://github.com/nabbisen/rypsok)"},
		{"1.2.3", "  ", "rypsok/1.2.3 (+https://github.com/nabbisen/rypsok)"},
		{"0.3.0", "https://ops.example.org/contact", "rypsok/0.3.0 (+https://github.com/nabbisen/rypsok; https://ops.example.org/contact)"},
		{"1.0", "ops@example.org\r\nX-Injected: 1", "rypsok/1.0 (+https://github.com/nabbisen/rypsok; ops@example.orgX-Injected: 1)"},
		{"1.0", "\x00ops\x7f@\u200bexample\u202e.org\u0085", "rypsok/1.0 (+https://github.com/nabbisen/rypsok; ops@example.org)"},
		{"1.0\n", "a\tb", "rypsok/1.0 (+https://github.com/nabbisen/rypsok; ab)"},
		{"1.0", "\xff", "rypsok/1.0 (+https://github.com/nabbisen/rypsok)"},
	}
	for _, c := range cases {
		if got := UserAgent(c.version, c.contact); got != c.want {
			t.Errorf("UserAgent(%q, %q) = %q, want %q", c.version, c.contact, got, c.want)
		}
	}
}

func BenchmarkReadBody(b *testing.B) {
	data := bytes.Repeat([]byte("<p>rypsok</p>\n"), 1<<20/14)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ReadBody(bytes.NewReader(data), 5<<20); err != nil {
			b.Fatal(err)
		}
	}
}
