package secrets

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rypsok/rsp"
)

// BenchmarkIngest10MBWithSecretsPlugin runs `rypsok rsp ingest` over a
// directory of 10 MB of text (100 files of prose paragraphs, a synthetic
// credential in every 50th paragraph) with this plugin at on_chunk, and
// reports chunks per second. Run it with -benchtime=1x.
func BenchmarkIngest10MBWithSecretsPlugin(b *testing.B) {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("the a host plugin content verdict chunk index retrieval page search result of to and in is for with on by deploy notes server config")
	total := 0
	for f := 0; f < 100; f++ {
		var sb strings.Builder
		for p := 0; sb.Len() < 100_000; p++ {
			for w := 0; w < 60+r.IntN(120); w++ {
				sb.WriteString(words[r.IntN(len(words))])
				sb.WriteByte(' ')
			}
			if p%50 == 49 {
				sb.WriteString("GITHUB_TOKEN=ghp_" + synthetic(r, alnum, 36))
			}
			sb.WriteString("\n\n")
		}
		total += sb.Len()
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("doc%03d.md", f)), []byte(sb.String()), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	s := rsp.DefaultSettings()
	s.Hooks = []string{rsp.HookChunk}
	s.CacheEntries = 0
	s.Plugins = []rsp.PluginSpec{{Name: "secrets", Command: []string{pluginBin}}}
	h, err := rsp.New(context.Background(), s, rsp.Deps{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	chunks := 0
	for b.Loop() {
		sum, err := rsp.Ingest(context.Background(), h, []string{dir}, io.Discard, nil)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Redacted == 0 || sum.Blocked != 0 {
			b.Fatalf("%+v", sum)
		}
		chunks += sum.Chunks
	}
	b.ReportMetric(float64(chunks)/b.Elapsed().Seconds(), "chunks/s")
}
