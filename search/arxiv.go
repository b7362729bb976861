package search

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"rypsok/tool"
)

// The arXiv driver follows its admission record (docs/engines/arxiv.md):
// the legacy API's query method, keyless, one request every three seconds
// and one connection at a time for all of this process's use of arXiv,
// queries of at most 300 characters and 20 words (unknown; chosen), every
// language, no time range, cacheable (descriptive metadata is CC0 and the
// manual asks clients to cache), 1 MiB a response.
var arxivProperties = Properties{
	RatePerMinute: 20, Burst: 1, MaxInFlight: 1, MaxQueryChars: 300, MaxQueryWords: 20,
	TimeRanges: false, Cacheable: true, AttributionRequired: false, ResponseBytes: 1 << 20,
}

const (
	arxivEndpoint = "https://export.arxiv.org/api/query"
	arxivSpacing  = 3 * time.Second
	atomNS        = "http://www.w3.org/2005/Atom"
	// The bounds of one answer besides its size: element depth, tokens,
	// entries, and the text kept of one field.
	arxivMaxDepth   = 16
	arxivMaxTokens  = 200000
	arxivMaxEntries = 50
	arxivMaxField   = 8192
)

type arxiv struct {
	endpoint *url.URL
	client   *http.Client
	gate     *providerGate
	now      func() time.Time
}

func newArxiv(cfg EngineConfig, s Settings, d Deps) (*arxiv, error) {
	ep := endpointOf(cfg.BaseURL, arxivEndpoint)
	c, err := engineClient(originOf(ep), s, d)
	if err != nil {
		return nil, err
	}
	// One gate per origin: arXiv's limits apply to all of a client's use.
	g := d.gates.gateFor("arxiv "+originOf(ep).String(), arxivSpacing, arxivProperties.MaxInFlight, clockOf(d))
	return &arxiv{endpoint: ep, client: c, gate: g, now: clockOf(d)}, nil
}

func (a *arxiv) Properties() Properties { return arxivProperties }

// arxivQuery turns a caller's words into search_query: every word searched
// in all fields, all of them required. Characters of the query syntax
// (quotes, parentheses, colons, brackets) are dropped, and the operators
// AND, OR and ANDNOT are searched as words, so a query cannot change the
// request's structure.
func arxivQuery(q string) string {
	var terms []string
	for _, w := range strings.Fields(q) {
		w = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' || r == '_' || r == '\'' {
				return r
			}
			return -1
		}, w)
		w = strings.Trim(w, "-.")
		if w == "" {
			continue
		}
		switch w {
		case "AND", "OR", "ANDNOT":
			w = strings.ToLower(w)
		}
		terms = append(terms, "all:"+w)
		if len(terms) == arxivProperties.MaxQueryWords {
			break
		}
	}
	return strings.Join(terms, " AND ")
}

func (a *arxiv) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	sq := arxivQuery(req.Query)
	if sq == "" {
		return []RawResult{}, nil // nothing searchable: nothing asked
	}
	n := req.MaxResults
	if n < 1 {
		n = 10
	}
	if n > arxivMaxEntries {
		n = arxivMaxEntries
	}
	u := *a.endpoint
	u.RawQuery = "search_query=" + url.QueryEscape(sq) + "&start=0&max_results=" + strconv.Itoa(n)
	release, gerr := a.gate.enter(ctx)
	if gerr != nil {
		return nil, gerr
	}
	defer release()
	status, h, body, ferr := get(ctx, a.client, u.String(), http.Header{"Accept": {"application/atom+xml"}}, arxivProperties.ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	switch {
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		wait := retryAfter(h, a.now())
		if wait == 0 {
			wait = arxivSpacing
		}
		return nil, rateLimited(wait)
	case status == http.StatusForbidden:
		return nil, failure(tool.ReasonBlocked)
	case status != http.StatusOK:
		return nil, failure(tool.ReasonRequestFailure)
	}
	return parseArxiv(body)
}

// arxivEntry is what the driver keeps of one <entry>.
type arxivEntry struct {
	id, title, summary, published string
}

// parseArxiv reads an Atom feed of the query method under the bounds
// above: a document of another shape, too deep, too long or not well
// formed is a parse_failure; the error entry is a request_failure. The
// decoder expands no entity beyond XML's five and refuses every other one,
// so an entity bomb ends at its first reference.
func parseArxiv(body []byte) ([]RawResult, error) {
	if t := bytes.TrimSpace(body); bytes.HasPrefix(t, []byte("Rate exceeded")) {
		return nil, rateLimited(arxivSpacing)
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = true
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "utf-8") || strings.EqualFold(label, "us-ascii") {
			return r, nil
		}
		return nil, errors.New("charset")
	}
	var (
		depth, tokens int
		sawFeed       bool
		entries       []arxivEntry
		cur           *arxivEntry
		field         *string // the text being collected, inside an entry
		fieldDepth    int
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, failure(tool.ReasonParseFailure)
		}
		if tokens++; tokens > arxivMaxTokens {
			return nil, failure(tool.ReasonParseFailure)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > arxivMaxDepth {
				return nil, failure(tool.ReasonParseFailure)
			}
			switch {
			case depth == 1:
				if t.Name.Space != atomNS || t.Name.Local != "feed" {
					return nil, failure(tool.ReasonParseFailure)
				}
				sawFeed = true
			case depth == 2 && t.Name.Space == atomNS && t.Name.Local == "entry":
				if len(entries) == arxivMaxEntries {
					return nil, failure(tool.ReasonParseFailure)
				}
				entries = append(entries, arxivEntry{})
				cur = &entries[len(entries)-1]
			case depth == 3 && cur != nil && t.Name.Space == atomNS:
				switch t.Name.Local {
				case "id":
					field = &cur.id
				case "title":
					field = &cur.title
				case "summary":
					field = &cur.summary
				case "published":
					field = &cur.published
				}
				fieldDepth = depth
			}
		case xml.EndElement:
			if field != nil && depth == fieldDepth {
				field = nil
			}
			if depth == 2 {
				cur = nil
			}
			depth--
		case xml.CharData:
			if field != nil && len(*field) < arxivMaxField {
				*field += cutAt(string(t), arxivMaxField-len(*field))
			}
		}
	}
	if !sawFeed || depth != 0 {
		return nil, failure(tool.ReasonParseFailure)
	}
	out := make([]RawResult, 0, len(entries))
	for _, e := range entries {
		id := strings.TrimSpace(e.id)
		title := oneLine(e.title, arxivMaxField)
		paper, ok := arxivIDFromURL(id)
		if title == "Error" && (!ok || strings.Contains(id, "/api/errors")) {
			// The API's error: one entry titled Error, with status 200.
			return nil, failure(tool.ReasonRequestFailure)
		}
		if !ok || title == "" {
			continue
		}
		date := strings.TrimSpace(e.published)
		if len(date) >= 10 {
			date = date[:10]
		} else {
			date = ""
		}
		out = append(out, RawResult{
			Title:   title,
			URL:     "https://arxiv.org/abs/" + paper,
			Snippet: oneLine(e.summary, arxivMaxField),
			Date:    date,
		})
	}
	return out, nil
}

// arxivIDFromURL reads the identifier from an entry's id
// (http://arxiv.org/abs/<id>[vN]), without its version suffix.
func arxivIDFromURL(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	switch strings.ToLower(u.Host) {
	case "arxiv.org", "www.arxiv.org", "export.arxiv.org":
	default:
		return "", false
	}
	rest, ok := strings.CutPrefix(u.Path, "/abs/")
	if !ok {
		return "", false
	}
	return arxivID(rest)
}
