package tool

// The JSON field order of every type below is alphabetical, so that the text
// rendering of a response is the same object, byte for byte, as a serializer
// with sorted keys would write it.

// Notice says what rypsok did or could not do. Code, Engine and Reason come
// from fixed vocabularies (REQ-SEC-016); Engine is an identifier from the
// operator's configuration.
type Notice struct {
	Code     Code     `json:"code"`
	Count    int      `json:"count,omitempty"`
	Engine   string   `json:"engine,omitempty"`
	Failure  string   `json:"failure,omitempty"`
	Plugins  []string `json:"plugins,omitempty"`
	Reason   Reason   `json:"reason,omitempty"`
	Severity string   `json:"severity,omitempty"`
	Types    []string `json:"types,omitempty"`
}

// Result is one search result. Title, URL, Snippet and Date are external
// data, cleaned and bounded; Engines is asserted by rypsok and present only
// when attribution is on.
type Result struct {
	Date    string   `json:"date,omitempty"`
	Engines []string `json:"engines,omitempty"`
	Snippet string   `json:"snippet"`
	Title   string   `json:"title"`
	URL     string   `json:"url"`
}

// SearchResponse is the answer of web_search.
type SearchResponse struct {
	Notices []Notice `json:"notices"`
	Outcome Outcome  `json:"outcome"`
	Results []Result `json:"results"`
}

// FetchResponse is the answer of web_fetch. URL, Title and Content are
// external data; Truncated and NextStartChar are rypsok's.
type FetchResponse struct {
	Content       string   `json:"content"`
	NextStartChar *int     `json:"next_start_char,omitempty"`
	Notices       []Notice `json:"notices"`
	Outcome       Outcome  `json:"outcome"`
	Title         string   `json:"title"`
	Truncated     bool     `json:"truncated"`
	URL           string   `json:"url"`
}

// EngineStatus is one engine's entry in engine_status. LatencyMs is null
// when no request has completed yet; Reason is set only when State is
// disabled.
type EngineStatus struct {
	ID        string         `json:"id"`
	LatencyMs *int64         `json:"latency_ms"`
	Reason    DisabledReason `json:"reason,omitempty"`
	State     EngineState    `json:"state"`
}

// StatusResponse is the answer of engine_status.
type StatusResponse struct {
	Engines []EngineStatus `json:"engines"`
	Notices []Notice       `json:"notices"`
	Outcome Outcome        `json:"outcome"`
}

// SearchRequest is a validated web_search call. Zero values are never
// passed by the adapter: it fills every default before the call.
type SearchRequest struct {
	Query      string
	Category   Category
	MaxResults int
	Language   string
	TimeRange  TimeRange
}

// FetchRequest is a validated web_fetch call.
type FetchRequest struct {
	URL       string
	MaxChars  int
	StartChar int
}
