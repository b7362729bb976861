package tomlx

import (
	"fmt"
	"strings"
	"testing"
)

const benchConfig = `config_version = 1

[service]
structured_content = true
user_agent_contact = "https://operator.example/contact"
shutdown_ms = 3000

[service.http]
bind = "127.0.0.1:8737"
allowed_hosts = ["rypsok.internal.example", "localhost:8737"]
allowed_origins = []
max_connections = 64
request_timeout_s = 30

[[service.http.auth.callers]]
id = "mimlys"
token_env = "RYPSOK_TOKEN_MIMLYS"

[[service.http.auth.callers]]
id = "batch_2"
token_file = "/run/secrets/rypsok_batch"

[search]
languages = ["en", "ja", "de"]
region = "US"
safe_search = "moderate"
max_results = 5
deadline_ms = 2500
engine_timeout_ms = 2000

[fetch]
max_chars = 3000
ports = [80, 443, 8443]
robots_txt = true

[egress]
allow = ["wiki.corp.example", "10.1.0.0/16"]
deny = ["*.ads.example"]

[privacy]
secret_detection = "refuse" # the default

[engines.wikipedia]
type = "wikipedia"
categories = ["general", "science"]

[engines.brave]
type = "brave"
categories = ["general", "news"]
api_key_env = "BRAVE_API_KEY"
preference = 50
`

// sizedDocument repeats a configuration-like section with distinct table
// names up to about size bytes.
func sizedDocument(size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size-400; i++ {
		fmt.Fprintf(&b, "[engines.e%d]\ntype = \"wikipedia\" # a comment\nenabled = true\npreference = %d\n", i, i)
		fmt.Fprintf(&b, "categories = [\"general\", \"news\",\n  \"science\"]\nlimits = { per_minute = 60, burst = 0x10 }\n")
		fmt.Fprintf(&b, "note = \"\"\"\nescaped \\t \\u00e9 text\"\"\"\nwhen = 1979-05-27T07:32:00Z\nratio = 0.5\n")
	}
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	inputs := []struct {
		name string
		doc  []byte
	}{
		{"config", []byte(benchConfig)},
		{"256KiB", sizedDocument(256 << 10)},
		{"1MiB", sizedDocument(1<<20 - 1)},
		{"wide-array-64KiB-line", []byte("a = [" + strings.Repeat("1,", 32<<10-4) + "]")},
		{"many-keys-one-table", func() []byte {
			var s strings.Builder
			for i := 0; s.Len() < 1<<20-32; i++ {
				fmt.Fprintf(&s, "k%d = %d\n", i, i)
			}
			return []byte(s.String())
		}()},
		{"escapes", []byte("a = \"" + strings.Repeat(`\u00e9\n`, 8000) + "\"")},
		{"nested-32", []byte(strings.Repeat("a = "+strings.Repeat("[", 32)+strings.Repeat("]", 32)+"\n", 1))},
	}
	for _, in := range inputs {
		if _, err := Parse(in.doc); err != nil {
			b.Fatalf("%s: %v", in.name, err)
		}
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(in.doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
