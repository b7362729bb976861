package htmlx

import (
	"fmt"
	"strings"
	"testing"
)

// chapterPage is a manual's chapter: the site's menu, the chapter's
// title, its sections as links to their pages in a box classed "toc",
// then a short introduction. n is the number of sections; frag makes
// the links lead to places in the page instead.
func chapterPage(n int, frag bool) string {
	var b strings.Builder
	b.WriteString(`<html><body><div class="navbar"><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li><li><a href="/download">Download</a></li></ul></div>`)
	b.WriteString(`<div id="content"><div class="chapter"><div class="titlepage"><h2>Chapter 7. Queries</h2></div><div class="toc"><p><strong>Table of Contents</strong></p><dl class="toc">`)
	for k := 1; k <= n; k++ {
		href := fmt.Sprintf("queries-part%d.html", k)
		if frag {
			href = fmt.Sprintf("#part%d", k)
		}
		fmt.Fprintf(&b, `<dt><a href="%s">7.%d. Querying section number %d</a></dt>`, href, k, k)
	}
	b.WriteString(`</dl></div><p>The process of retrieving data from a database is called a query. This chapter explains how a query is written, which clauses it has, and how the server runs it.</p><p>Each section below takes one part of a query in turn, with examples you can run against the sample database that comes with the server.</p></div>`)
	b.WriteString(`<div class="footer"><a href="/legal">Legal</a></div></div></body></html>`)
	return b.String()
}

func TestChapterContentsKept(t *testing.T) {
	page, err := ExtractHTML(chapterPage(8, false), nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, page.Markdown, []string{"Querying section number 1", "Querying section number 8", "retrieving data from a database"}, []string{"Download", "Legal"})

	// a handful of links under the title is a bar of tags, not the
	// chapter's sections
	page, _ = ExtractHTML(chapterPage(4, false), nil, Limits{})
	checkText(t, page.Markdown, []string{"retrieving data from a database"}, []string{"Querying section number 1"})

	// contents that lead to places in the page say the page again
	page, _ = ExtractHTML(chapterPage(8, true), nil, Limits{})
	checkText(t, page.Markdown, []string{"retrieving data from a database"}, []string{"Querying section number 1"})

	// a table of contents not followed by prose is the site's menu
	doc := strings.Replace(chapterPage(8, false), `<p>The process`, `<div class="grid"><a href="/x">x</a></div><p>The process`, 1)
	page, _ = ExtractHTML(doc, nil, Limits{})
	checkText(t, page.Markdown, []string{"retrieving data from a database"}, []string{"Querying section number 1"})
}
