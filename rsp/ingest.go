package rsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// IngestMaxFileBytes is the largest file Ingest reads; larger files are
// skipped and counted.
const IngestMaxFileBytes = 16 << 20

// IngestSummary counts what Ingest did. Indexed counts the chunks that
// survived (written with --out), redacted ones included.
type IngestSummary struct {
	Files, Chunks, Indexed, Redacted, Blocked    int
	Flagged                                      int // flagged and neither redacted nor blocked
	SkippedBinary, SkippedOversize, SkippedOther int
}

// ingestRecord is one line of the --out file.
type ingestRecord struct {
	Source     string     `json:"source"`
	Line       int        `json:"line"`
	ChunkIndex int        `json:"chunk_index"`
	Content    string     `json:"content"`
	RSP        ingestMeta `json:"rsp"`
}

type ingestMeta struct {
	Plugins  []string `json:"plugins"`
	Types    []string `json:"types"`
	Severity Severity `json:"severity,omitempty"`
}

// severity is the highest severity of r's redactions and flags.
func severity(r Result) Severity {
	s := r.FlagSeverity
	for _, red := range r.Redactions {
		s = maxSeverity(s, red.Severity)
	}
	return s
}

// Ingest is `rypsok rsp ingest PATH…`: it walks the files under each path
// (regular files only; symbolic links are never followed; binary, not
// UTF-8 and oversized files are skipped and counted), splits each into
// chunks of at most the host's ChunkBytes (paragraphs kept whole when
// they fit), and judges every chunk at on_chunk (metadata source, line,
// chunk_index). To report it writes a line per BLOCK and REDACT,
// "BLOCK  <types>  <path>:<line>" (a BLOCK without types names its
// plugin, its failure class or the reason the plugin gave), then "scanned N chunks: I indexed, R
// redacted, B blocked" and a line of skipped files. To out (when not
// nil) it writes each surviving chunk, redacted, as a JSON line; nothing
// blocked is written anywhere. h must have been made with on_chunk among
// its Hooks. The error is for a path that cannot be walked or a write
// that fails.
func Ingest(ctx context.Context, h *Host, paths []string, report, out io.Writer) (IngestSummary, error) {
	var sum IngestSummary
	enc := json.NewEncoder(io.Discard)
	if out != nil {
		enc = json.NewEncoder(out)
		enc.SetEscapeHTML(false)
	}
	chunkBytes := 2000
	if h != nil && h.s.ChunkBytes > 0 {
		chunkBytes = h.s.ChunkBytes
	}
	visit := func(path string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			sum.SkippedOther++
			return nil
		}
		info, err := d.Info()
		if err != nil {
			sum.SkippedOther++
			return nil
		}
		if info.Size() > IngestMaxFileBytes {
			sum.SkippedOversize++
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			sum.SkippedOther++
			return nil
		}
		if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
			sum.SkippedBinary++
			return nil
		}
		sum.Files++
		text := string(b)
		chunks := chunk(text, chunkBytes)
		items := make([]Item, len(chunks))
		for i, c := range chunks {
			items[i] = Item{Content: c.text, Metadata: map[string]any{"source": path, "line": c.line, "chunk_index": i}}
		}
		for i, r := range h.Judge(ctx, HookChunk, "", items) {
			sum.Chunks++
			where := fmt.Sprintf("%s:%d", path, chunks[i].line)
			switch r.Verdict {
			case Block:
				sum.Blocked++
				what := strings.Join(r.Types, ",")
				if what == "" {
					what = "plugin=" + r.BlockedBy
				}
				if r.Failure != "" {
					what += " failure=" + string(r.Failure)
				}
				if r.Reason != "" {
					// The operator learns why (the reference's V4); the
					// reason is bounded and cleaned, quoted to stay one line.
					what += fmt.Sprintf(" reason=%q", r.Reason)
				}
				if _, err := fmt.Fprintf(report, "BLOCK  %s  %s\n", what, where); err != nil {
					return err
				}
				continue
			case Redact:
				sum.Redacted++
				if _, err := fmt.Fprintf(report, "REDACT  %s  %s\n", strings.Join(r.Types, ","), where); err != nil {
					return err
				}
			case Flag:
				sum.Flagged++
			}
			if len(r.Flagged) > 0 {
				if _, err := fmt.Fprintf(report, "FLAG  %s plugin=%s  %s\n", orNone(r.FlagSeverity), strings.Join(r.Flagged, ","), where); err != nil {
					return err
				}
			}
			sum.Indexed++
			meta := ingestMeta{Plugins: append(append([]string{}, r.RedactedBy...), r.Flagged...), Types: append([]string{}, r.Types...), Severity: severity(r)}
			if err := enc.Encode(ingestRecord{Source: path, Line: chunks[i].line, ChunkIndex: i, Content: r.Content, RSP: meta}); err != nil {
				return err
			}
		}
		return nil
	}
	for _, root := range paths {
		info, err := os.Lstat(root)
		if err != nil {
			return sum, err
		}
		if !info.IsDir() {
			if err := visit(root, fs.FileInfoToDirEntry(info)); err != nil {
				return sum, err
			}
			continue
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if d == nil || path == root {
					return err
				}
				sum.SkippedOther++
				return nil
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() {
				return nil
			}
			return visit(path, d)
		})
		if err != nil {
			return sum, err
		}
	}
	if _, err := fmt.Fprintf(report, "scanned %d chunks: %d indexed, %d redacted, %d blocked\n", sum.Chunks, sum.Indexed, sum.Redacted, sum.Blocked); err != nil {
		return sum, err
	}
	_, err := fmt.Fprintf(report, "skipped %d files: %d binary, %d oversized, %d not regular or unreadable\n",
		sum.SkippedBinary+sum.SkippedOversize+sum.SkippedOther, sum.SkippedBinary, sum.SkippedOversize, sum.SkippedOther)
	return sum, err
}

// textChunk is a contiguous piece of a file and the line it starts on.
type textChunk struct {
	text string
	line int
}

// maxWordBytes bounds how far a chunk grows past the limit to keep a word
// whole: a word longer than this is cut at the limit.
const maxWordBytes = 64 << 10

// chunk splits text into contiguous chunks of at most limit bytes: a cut
// goes at the last paragraph start (a line after a blank line) that
// fits, else at the last line start, else after the last space or tab.
// A cut never falls inside a word: when the limit holds no space, the
// chunk grows to the end of its word (up to maxWordBytes past the limit,
// beyond which it is cut at a character boundary). The chunks
// concatenate to text.
func chunk(text string, limit int) []textChunk {
	var out []textChunk
	line := 1
	for pos := 0; pos < len(text); {
		end := len(text)
		if end-pos > limit {
			end = cutPoint(text, pos, pos+limit)
		}
		out = append(out, textChunk{text: text[pos:end], line: line})
		line += strings.Count(text[pos:end], "\n")
		pos = end
	}
	return out
}

// cutPoint chooses where the chunk starting at pos ends, at most at max
// unless a word crosses max.
func cutPoint(text string, pos, max int) int {
	window := text[pos:max]
	para, lineStart, space := -1, -1, -1
	for i := len(window); i > 0; i-- {
		if space < 0 && (window[i-1] == ' ' || window[i-1] == '\t') {
			space = i
		}
		if window[i-1] != '\n' {
			continue
		}
		if lineStart < 0 {
			lineStart = i
		}
		// A paragraph starts after a blank line: "\n\n" or "\n\r\n".
		if j := i - 1; j > 0 && (window[j-1] == '\n' || window[j-1] == '\r' && j > 1 && window[j-2] == '\n') {
			para = i
			break
		}
	}
	switch {
	case para > 0:
		return pos + para
	case lineStart > 0:
		return pos + lineStart
	case space > 0:
		return pos + space
	}
	// No space in the window: the chunk ends after the word that crosses
	// max, when that word ends within maxWordBytes.
	for i := max; i < len(text) && i < max+maxWordBytes; i++ {
		if c := text[i]; c == ' ' || c == '\t' || c == '\n' {
			return i // the next chunk starts with the space
		}
	}
	if max+maxWordBytes >= len(text) {
		return len(text)
	}
	end := max
	for end > pos+1 && !utf8.RuneStart(text[end]) {
		end--
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++ // a limit smaller than one character
	}
	return end
}

// orNone is s, or "none" for no severity.
func orNone(s Severity) string {
	if s == "" {
		return "none"
	}
	return string(s)
}
