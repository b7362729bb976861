package fetch

import (
	"net/http"
	"os"
	"testing"
	"unicode/utf8"
)

// The answers of Tutorial 3 (01-introduction-and-tutorials.md), as the
// book prints them.
const (
	tutorialContent = "# Rust ownership, in short\n\nEvery value in Rust has one owner. When the owner goes out of scope, the value is dropped. A value can be moved to a new owner, or borrowed for a while by a reference.\n\n## Borrowing\n\nA shared reference lets many readers look at a value at once. A mutable reference lets one writer change it, and nobody else may look while it exists. The compiler checks these rules before the program runs.\n\n## Why it matters\n\nOwnership replaces a garbage collector with rules the compiler enforces, so memory is freed exactly once and data races are impossible in safe code. The rules take time to learn, and the compiler's messages name the conflicting borrow.\n\n- One owner at a time.\n- Many readers or one writer.\n- Checked at compile time."
	tutorialPart1   = "# Rust ownership, in short\n\nEvery value in Rust has one owner. When the owner goes out of scope, the value is dropped. A value can be moved to a new owner, or borrowed for a while by a reference.\n\n## Borrowing\n\nA shared reference lets many readers look at a value at once. A mutable reference lets one writer change it, and nobody else may look while it exists. The compiler checks these rules before the program runs.\n\n## Why it matters\n\nOwnership replaces a garbage collector with rules the compile"
	tutorialPart2   = "r enforces, so memory is freed exactly once and data races are impossible in safe code. The rules take time to learn, and the compiler's messages name the conflicting borrow.\n\n- One owner at a time.\n- Many readers or one writer.\n- Checked at compile time."
	tutorialTitle   = "Rust ownership, in short"
)

// tutorialSite serves the tutorial's page at /rust-ownership as HTML
// (testdata/rust-ownership.html) and its Markdown at /rust-ownership.md.
func tutorialSite(t *testing.T) *site {
	t.Helper()
	page, err := os.ReadFile("testdata/rust-ownership.html")
	if err != nil {
		t.Fatal(err)
	}
	return newSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/rust-ownership":
			html(string(page))(w, r)
		case "/rust-ownership.md":
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			_, _ = w.Write([]byte(tutorialContent + "\n"))
		default:
			http.NotFound(w, r)
		}
	})
}

// readInTwoParts fetches u whole, then in parts of 500 characters, and
// checks the continuation contract of REQ-FETCH-005 on the way.
func readInTwoParts(t *testing.T, e *env, u string) (whole, first, second string) {
	t.Helper()
	w := e.mustFetch(t, u, 5000, 0)
	if w.Truncated || w.NextStartChar != nil || w.URL != u || w.Outcome != "ok" || len(w.Notices) != 0 {
		t.Fatalf("whole page: truncated %v next %v url %q outcome %q notices %v", w.Truncated, w.NextStartChar, w.URL, w.Outcome, w.Notices)
	}
	if n := utf8.RuneCountInString(w.Content); n <= 500 || n > 1000 {
		t.Fatalf("the page has %d characters; the test needs two parts of 500", n)
	}
	p1 := e.mustFetch(t, u, 500, 0)
	if !p1.Truncated || p1.NextStartChar == nil || *p1.NextStartChar != 500 {
		t.Fatalf("first part: truncated %v next %v", p1.Truncated, p1.NextStartChar)
	}
	if n := utf8.RuneCountInString(p1.Content); n != 500 {
		t.Fatalf("first part has %d characters, want 500", n)
	}
	p2 := e.mustFetch(t, u, 500, *p1.NextStartChar)
	if p2.Truncated || p2.NextStartChar != nil {
		t.Fatalf("second part: truncated %v next %v", p2.Truncated, p2.NextStartChar)
	}
	if p1.Content+p2.Content != w.Content {
		t.Fatal("the two parts do not make the whole")
	}
	if p1.Title != w.Title || p2.Title != w.Title || p1.URL != u || p2.URL != u {
		t.Fatal("the parts do not carry the title and url of the whole")
	}
	return w.Content, p1.Content, p2.Content
}

func TestREQ_FETCH_005_TutorialThreeInTwoParts(t *testing.T) {
	st := tutorialSite(t)
	e := newEnv(t, nil, st)
	readInTwoParts(t, e, st.url("example.com", "/rust-ownership"))

	// Served as Markdown, the page is the book's answer byte for byte.
	whole, first, second := readInTwoParts(t, e, st.url("example.com", "/rust-ownership.md"))
	if whole != tutorialContent || first != tutorialPart1 || second != tutorialPart2 {
		t.Fatalf("the parts differ from the book's:\n%q\n%q", first, second)
	}
	if resp := e.mustFetch(t, st.url("example.com", "/rust-ownership.md"), 500, 0); resp.Title != tutorialTitle {
		t.Fatalf("title %q", resp.Title)
	}
}

// TestREQ_FETCH_002_TutorialThreeAnswerIsTheBooks fetches the tutorial's
// HTML page and expects the answer the book prints.
func TestREQ_FETCH_002_TutorialThreeAnswerIsTheBooks(t *testing.T) {
	st := tutorialSite(t)
	e := newEnv(t, nil, st)
	resp := e.mustFetch(t, st.url("example.com", "/rust-ownership"), 5000, 0)
	if resp.Title != tutorialTitle {
		t.Errorf("title %q, want %q", resp.Title, tutorialTitle)
	}
	if resp.Content != tutorialContent {
		t.Errorf("content\n%q\nwant\n%q", resp.Content, tutorialContent)
	}
}
