package secrets

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// testValue is what the printing tests hide; it is not a credential.
const testValue = "value-Zq8wX3rT-never-printed"

// holder embeds a Secret in every way a caller might: exported, unexported,
// by pointer, in a slice and a map.
type holder struct {
	Name   string
	Key    Secret
	hidden Secret
	Ptr    *Secret
	List   []Secret
	ByName map[string]Secret
}

// xmlHolder is a named type, which encoding/xml needs.
type xmlHolder struct{ K Secret }

func newHolder() holder {
	s := New(testValue)
	return holder{Name: "brave", Key: s, hidden: s, Ptr: &s, List: []Secret{s}, ByName: map[string]Secret{"k": s}}
}

func TestREQ_SEC_020_SecretNeverPrints(t *testing.T) {
	s := New(testValue)
	h := newHolder()
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3s", "%-8v", "%T %v"}
	var printed []string
	for _, v := range verbs {
		printed = append(printed, fmt.Sprintf(v, s), fmt.Sprintf(v, &s), fmt.Sprintf(v, h), fmt.Sprintf(v, &h),
			fmt.Sprintf(v, struct{ S Secret }{s}), fmt.Sprintf(v, []any{s}))
	}
	printed = append(printed, s.String(), s.GoString(), fmt.Sprint(s), fmt.Sprintln(s, h), fmt.Sprint(h))

	j, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	printed = append(printed, string(j))
	if j, _ := json.Marshal(s); string(j) != `"[redacted]"` {
		t.Errorf("json of a Secret: %s", j)
	}
	if txt, _ := s.MarshalText(); string(txt) != "[redacted]" {
		t.Errorf("MarshalText: %s", txt)
	}
	x, err := xml.Marshal(xmlHolder{K: s})
	if err != nil {
		t.Fatal(err)
	}
	printed = append(printed, string(x))

	var logged bytes.Buffer
	lg := slog.New(slog.NewJSONHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	lg.Info("engine_ready", "key", s, "holder", h, slog.Any("any", s), slog.Group("g", "k", s))
	lt := slog.New(slog.NewTextHandler(&logged, nil))
	lt.Info("engine_ready", "key", s, "holder", h)
	var std bytes.Buffer
	log.New(&std, "", 0).Printf("%v %+v", s, h)
	printed = append(printed, logged.String(), std.String())

	for _, p := range printed {
		if strings.Contains(p, testValue) || strings.Contains(p, "Zq8wX3rT") || strings.Contains(p, fmt.Sprintf("%x", testValue)[:12]) {
			t.Errorf("the value is printed: %s", p)
		}
	}
	if !strings.Contains(logged.String(), `"key":"[redacted]"`) {
		t.Errorf("the JSON log does not show the mask: %s", logged.String())
	}
	if s.Reveal() != testValue {
		t.Errorf("Reveal lost the value")
	}
}

func TestSecretZeroAndReveal(t *testing.T) {
	var zero Secret
	if !zero.IsZero() || zero.Reveal() != "" || !New("").IsZero() {
		t.Errorf("the zero Secret is not zero")
	}
	if New("x").IsZero() || New("x").Reveal() != "x" {
		t.Errorf("New lost its value")
	}
	if fmt.Sprint(zero) != "[redacted]" {
		t.Errorf("the zero Secret prints %q", fmt.Sprint(zero))
	}
}

func TestREQ_CFG_004_IsEnvName(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"BRAVE_API_KEY", true},
		{"_PRIVATE", true},
		{"A", true},
		{"RYPSOK_TOKEN_2", true},
		{strings.Repeat("A", 256), true},
		{strings.Repeat("A", 257), false},
		{"", false},
		{"2FA", false},
		{"brave_api_key", false},
		{"BRAVE-KEY", false},
		{"BRAVE KEY", false},
		{"BSAxYz123", false},
		{"KEY=VALUE", false},
		{"ÄKEY", false},
	} {
		if got := IsEnvName(c.name); got != c.want {
			t.Errorf("IsEnvName(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestREQ_CFG_004_FromEnv(t *testing.T) {
	env := map[string]string{"SET": "  tok-123\n", "EMPTY": "", "BLANK": " \t\n"}
	calls := 0
	lookup := func(k string) (string, bool) {
		calls++
		v, ok := env[k]
		return v, ok
	}
	s, err := FromEnv("SET", lookup)
	if err != nil || s.Reveal() != "tok-123" {
		t.Errorf("FromEnv(SET) = %q, %v", s.Reveal(), err)
	}
	for _, name := range []string{"UNSET", "EMPTY", "BLANK"} {
		if s, err := FromEnv(name, lookup); !errors.Is(err, ErrUnset) || !s.IsZero() {
			t.Errorf("FromEnv(%s) = %v, want ErrUnset", name, err)
		}
	}
	before := calls
	if _, err := FromEnv("not a name", lookup); !errors.Is(err, ErrNotEnvName) {
		t.Errorf("a bad name gave %v", err)
	}
	if calls != before {
		t.Errorf("a bad name was looked up")
	}
	if err := fmt.Sprint(ErrNotEnvName, ErrUnset); strings.Contains(err, "not a name") {
		t.Errorf("an error repeats the name")
	}
}

func TestREQ_CFG_004_FromFile(t *testing.T) {
	dir := t.TempDir()
	const content = "file-secret-Qp4vN8"
	write := func(name, data string, perm os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, perm); err != nil { // umask may have narrowed it
			t.Fatal(err)
		}
		return p
	}
	good := write("good", "\n  "+content+"\r\n\t", 0o600)
	s, info, err := FromFile(good)
	if err != nil || s.Reveal() != content || info.WorldReadable {
		t.Errorf("FromFile(good) = %q, %+v, %v", s.Reveal(), info, err)
	}
	if runtime.GOOS != "windows" {
		_, info, err = FromFile(write("open", content, 0o644))
		if err != nil || !info.WorldReadable {
			t.Errorf("a 0644 file: %+v, %v", info, err)
		}
		_, info, _ = FromFile(write("group", content, 0o640))
		if info.WorldReadable {
			t.Errorf("a 0640 file is reported world-readable")
		}
	}
	exact := write("exact", strings.Repeat("k", 64<<10), 0o600)
	if s, _, err := FromFile(exact); err != nil || len(s.Reveal()) != 64<<10 {
		t.Errorf("a file of exactly 64 KiB: %v", err)
	}

	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path, msg string
		is              error
	}{
		{"empty", write("empty", "", 0o600), "the file is empty", nil},
		{"blank", write("blank", " \n\t\r\n", 0o600), "the file is empty", nil},
		{"large", write("large", content+strings.Repeat("x", 64<<10), 0o600), "the file is larger than 64 KiB", nil},
		{"missing", filepath.Join(dir, "missing-"+content), "the file cannot be read", fs.ErrNotExist},
		{"directory", sub, "the file is not a regular file", nil},
	}
	for _, c := range cases {
		s, _, err := FromFile(c.path)
		if err == nil || err.Error() != c.msg || !s.IsZero() {
			t.Errorf("%s: got %v, want %q", c.name, err, c.msg)
			continue
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v does not wrap %v", c.name, err, c.is)
		}
		if msg := fmt.Sprintf("%v %+v", err, err); strings.Contains(msg, content) || strings.Contains(msg, dir) {
			t.Errorf("%s: the error shows the content or the path: %s", c.name, msg)
		}
	}
}

func TestREQ_TEST_008_ModeWords(t *testing.T) {
	for _, c := range []struct {
		word string
		mode Mode
	}{{"refuse", Refuse}, {"mask", Mask}, {"warn", Warn}, {"off", Off}} {
		m, ok := ParseMode(c.word)
		if !ok || m != c.mode {
			t.Errorf("ParseMode(%q) = %v, %v", c.word, m, ok)
		}
		if c.mode.String() != c.word {
			t.Errorf("%d.String() = %q, want %q", c.mode, c.mode.String(), c.word)
		}
	}
	var zero Mode
	if zero != Refuse {
		t.Errorf("the zero Mode is %v, want refuse (the default)", zero)
	}
	for _, w := range []string{"", "Refuse", "MASK", " warn", "block", "on", "true"} {
		if m, ok := ParseMode(w); ok || m != Refuse {
			t.Errorf("ParseMode(%q) = %v, %v; want refuse, false", w, m, ok)
		}
	}
	if s := Mode(7).String(); s != "Mode(7)" {
		t.Errorf("Mode(7).String() = %q", s)
	}
}
