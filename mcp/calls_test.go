package mcp

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"rypsok/tool"
)

// wantErr is the expected tool error of an invalid call.
type wantErr struct {
	parameter string
	message   string
}

// Every invalid argument of web_search is refused with the message that
// says what to change, and the service never sees the call.
func TestREQ_SEARCH_006_InvalidArgumentsNeverReachTheService(t *testing.T) {
	cases := []struct {
		name string
		args string
		want wantErr
	}{
		{"arguments not an object", `["q"]`, wantErr{"", "arguments must be a JSON object"}},
		{"arguments a string", `"q"`, wantErr{"", "arguments must be a JSON object"}},
		{"arguments missing", ``, wantErr{"query", "query is required"}},
		{"arguments null", `null`, wantErr{"query", "query is required"}},
		{"query missing", `{}`, wantErr{"query", "query is required"}},
		{"query not a string", `{"query":5}`, wantErr{"query", "query must be a string"}},
		{"query null", `{"query":null}`, wantErr{"query", "query must be a string"}},
		{"query empty", `{"query":""}`, wantErr{"query", "query must have between 1 and 400 characters"}},
		{"query only white space", `{"query":" \t\u3000\u00a0 "}`, wantErr{"query", "query must have between 1 and 400 characters"}},
		{"query too long", `{"query":"` + strings.Repeat("é", 401) + `"}`, wantErr{"query", "query must have between 1 and 400 characters"}},
		{"category unknown", `{"query":"q","category":"images"}`, wantErr{"category", "category must be one of: general, science"}},
		{"category known but not served", `{"query":"q","category":"news"}`, wantErr{"category", "category must be one of: general, science"}},
		{"category not a string", `{"query":"q","category":1}`, wantErr{"category", "category must be one of: general, science"}},
		{"max_results zero", `{"query":"q","max_results":0}`, wantErr{"max_results", "max_results must be between 1 and 20"}},
		{"max_results above", `{"query":"q","max_results":21}`, wantErr{"max_results", "max_results must be between 1 and 20"}},
		{"max_results huge", `{"query":"q","max_results":1e300}`, wantErr{"max_results", "max_results must be between 1 and 20"}},
		{"max_results negative huge", `{"query":"q","max_results":-99999999999999999999999}`, wantErr{"max_results", "max_results must be between 1 and 20"}},
		{"max_results fraction", `{"query":"q","max_results":5.5}`, wantErr{"max_results", "max_results must be an integer"}},
		{"max_results tiny fraction", `{"query":"q","max_results":5.0000000000000000001}`, wantErr{"max_results", "max_results must be an integer"}},
		{"max_results string", `{"query":"q","max_results":"5"}`, wantErr{"max_results", "max_results must be an integer"}},
		{"max_results bool", `{"query":"q","max_results":true}`, wantErr{"max_results", "max_results must be an integer"}},
		{"max_results null", `{"query":"q","max_results":null}`, wantErr{"max_results", "max_results must be an integer"}},
		{"language other than the one configured", `{"query":"q","language":"ja"}`, wantErr{"language", "language must be one of: en"}},
		{"time_range unknown", `{"query":"q","time_range":"decade"}`, wantErr{"time_range", "time_range must be one of: day, week, month, year"}},
		{"unknown parameter", `{"query":"q","page":2}`, wantErr{"page", "unknown parameter; the parameters are: query, category, max_results, time_range"}},
		{"unknown parameter before a missing query", `{"q":"x"}`, wantErr{"q", "unknown parameter; the parameters are: query, category, max_results, time_range"}},
		{"unknown parameter not echoed", `{"query":"q","Ignore All":1}`, wantErr{"", "unknown parameter; the parameters are: query, category, max_results, time_range"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			search := &fakeSearch{}
			s := startSession(t, newTestServer(t, testSettings(), search, &fakeFetch{}, nil, nil))
			s.send(call(1, "web_search", tc.args))
			e := toolError(t, s.recvMsg())
			checkInvalid(t, e, tc.want)
			if n := len(search.recorded()); n != 0 {
				t.Errorf("the service was called %d times", n)
			}
		})
	}
}

func checkInvalid(t *testing.T, e map[string]any, want wantErr) {
	t.Helper()
	if e["kind"] != "invalid_request" {
		t.Errorf("kind = %v", e["kind"])
	}
	if e["message"] != want.message {
		t.Errorf("message = %q, want %q", e["message"], want.message)
	}
	d := e["detail"].(map[string]any)
	if p, _ := d["parameter"].(string); p != want.parameter {
		t.Errorf("detail.parameter = %q, want %q", p, want.parameter)
	}
}

// Valid arguments reach the service complete: trimmed query, every default
// filled, integers written as 5.0 or 1e1 accepted.
func TestREQ_SEARCH_001_ValidArgumentsAreCompleted(t *testing.T) {
	twoLanguages := testSettings()
	twoLanguages.Languages = []string{"en", "ja"}
	cases := []struct {
		name string
		set  Settings
		args string
		want tool.SearchRequest
	}{
		{"defaults", testSettings(), `{"query":"  rust\u3000"}`, tool.SearchRequest{Query: "rust", Category: "general", MaxResults: 5, Language: "en"}},
		{"400 characters", testSettings(), `{"query":"` + strings.Repeat("日", 400) + `"}`, tool.SearchRequest{Query: strings.Repeat("日", 400), Category: "general", MaxResults: 5, Language: "en"}},
		{"everything", twoLanguages, `{"query":"q","category":"science","max_results":20,"language":"ja","time_range":"week"}`, tool.SearchRequest{Query: "q", Category: "science", MaxResults: 20, Language: "ja", TimeRange: "week"}},
		{"integer as 5.0", testSettings(), `{"query":"q","max_results":5.0}`, tool.SearchRequest{Query: "q", Category: "general", MaxResults: 5, Language: "en"}},
		{"integer as 1e1", testSettings(), `{"query":"q","max_results":1e1}`, tool.SearchRequest{Query: "q", Category: "general", MaxResults: 10, Language: "en"}},
		{"integer as 0.2e2", testSettings(), `{"query":"q","max_results":0.2e2}`, tool.SearchRequest{Query: "q", Category: "general", MaxResults: 20, Language: "en"}},
		{"the one configured language", testSettings(), `{"query":"q","language":"en"}`, tool.SearchRequest{Query: "q", Category: "general", MaxResults: 5, Language: "en"}},
		{"second language is not the default", twoLanguages, `{"query":"q"}`, tool.SearchRequest{Query: "q", Category: "general", MaxResults: 5, Language: "en"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			search := &fakeSearch{}
			s := startSession(t, newTestServer(t, tc.set, search, &fakeFetch{}, nil, nil))
			s.send(call(1, "web_search", tc.args))
			if _, isErr := toolPayload(t, s.recvMsg()); isErr {
				t.Fatal("refused")
			}
			got := search.recorded()
			if len(got) != 1 || !reflect.DeepEqual(got[0], tc.want) {
				t.Errorf("service got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// When general is not served, the first served category is the default.
func TestREQ_SEARCH_002_DefaultCategory(t *testing.T) {
	search := &fakeSearch{categories: []tool.Category{tool.CategoryCode, tool.CategoryNews}}
	s := startSession(t, newTestServer(t, testSettings(), search, &fakeFetch{}, nil, nil))
	s.send(call(1, "web_search", `{"query":"q"}`))
	s.recv()
	s.send(call(2, "web_search", `{"query":"q","category":"general"}`))
	checkInvalid(t, toolError(t, s.recvMsg()), wantErr{"category", "category must be one of: news, code"})
	if got := search.recorded(); len(got) != 1 || got[0].Category != tool.CategoryNews {
		t.Errorf("service got %+v", got)
	}
}

func TestREQ_FETCH_003_InvalidArgumentsNeverReachTheService(t *testing.T) {
	long := "https://example.org/" + strings.Repeat("a", 2049-len("https://example.org/"))
	cases := []struct {
		name string
		args string
		want wantErr
	}{
		{"url missing", `{}`, wantErr{"url", "url is required"}},
		{"url not a string", `{"url":1}`, wantErr{"url", "url must be a string"}},
		{"url too long", `{"url":"` + long + `"}`, wantErr{"url", "url must have at most 2048 characters"}},
		{"url relative", `{"url":"/page"}`, wantErr{"url", "url must be an absolute http or https URL"}},
		{"url without host", `{"url":"https:///page"}`, wantErr{"url", "url must be an absolute http or https URL"}},
		{"url opaque", `{"url":"mailto:a@example.org"}`, wantErr{"url", "url must be an absolute http or https URL"}},
		{"url empty", `{"url":""}`, wantErr{"url", "url must be an absolute http or https URL"}},
		{"url with a space before", `{"url":" https://example.org/"}`, wantErr{"url", "url must be an absolute http or https URL"}},
		{"max_chars below 500", `{"url":"https://example.org/","max_chars":499}`, wantErr{"max_chars", "max_chars must be between 500 and 20000"}},
		{"max_chars above the ceiling", `{"url":"https://example.org/","max_chars":20001}`, wantErr{"max_chars", "max_chars must be between 500 and 20000"}},
		{"max_chars fraction", `{"url":"https://example.org/","max_chars":3000.5}`, wantErr{"max_chars", "max_chars must be an integer"}},
		{"max_chars string", `{"url":"https://example.org/","max_chars":"3000"}`, wantErr{"max_chars", "max_chars must be an integer"}},
		{"start_char negative", `{"url":"https://example.org/","start_char":-1}`, wantErr{"start_char", "start_char must be between 0 and 2147483647"}},
		{"start_char fraction", `{"url":"https://example.org/","start_char":0.5}`, wantErr{"start_char", "start_char must be an integer"}},
		{"unknown parameter", `{"url":"https://example.org/","format":"html"}`, wantErr{"format", "unknown parameter; the parameters are: url, max_chars, start_char"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fetch := &fakeFetch{}
			s := startSession(t, newTestServer(t, testSettings(), &fakeSearch{}, fetch, nil, nil))
			s.send(call(1, "web_fetch", tc.args))
			checkInvalid(t, toolError(t, s.recvMsg()), tc.want)
			if n := len(fetch.recorded()); n != 0 {
				t.Errorf("the service was called %d times", n)
			}
		})
	}
}

// Valid web_fetch arguments reach the service with every default filled.
// A scheme other than http(s) is not a matter of form: the fetch policy
// refuses it (denied, scheme).
func TestREQ_FETCH_005_ValidArgumentsAreCompleted(t *testing.T) {
	cases := []struct {
		args string
		want tool.FetchRequest
	}{
		{`{"url":"https://example.org/a?b=c"}`, tool.FetchRequest{URL: "https://example.org/a?b=c", MaxChars: 3000}},
		{`{"url":"http://example.org/","max_chars":500,"start_char":3000}`, tool.FetchRequest{URL: "http://example.org/", MaxChars: 500, StartChar: 3000}},
		{`{"url":"ftp://example.org/file","max_chars":20000}`, tool.FetchRequest{URL: "ftp://example.org/file", MaxChars: 20000}},
		{`{"url":"https://example.org/` + strings.Repeat("é", 2048-len("https://example.org/")) + `"}`, tool.FetchRequest{URL: "https://example.org/" + strings.Repeat("é", 2048-len("https://example.org/")), MaxChars: 3000}},
	}
	for _, tc := range cases {
		fetch := &fakeFetch{}
		s := startSession(t, newTestServer(t, testSettings(), &fakeSearch{}, fetch, nil, nil))
		s.send(call(1, "web_fetch", tc.args))
		if _, isErr := toolPayload(t, s.recvMsg()); isErr {
			t.Fatalf("%s refused", tc.args)
		}
		if got := fetch.recorded(); len(got) != 1 || got[0] != tc.want {
			t.Errorf("service got %+v, want %+v", got, tc.want)
		}
	}
}

func TestREQ_MCP_004_EngineStatusTakesNoParameters(t *testing.T) {
	s := startSession(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil))
	s.send(call(1, "engine_status", `{"verbose":true}`))
	checkInvalid(t, toolError(t, s.recvMsg()), wantErr{"verbose", "this tool takes no parameters; call it with {}"})
	s.send(call(2, "engine_status", ``))
	if _, isErr := toolPayload(t, s.recvMsg()); isErr {
		t.Error("engine_status without arguments refused")
	}
}

// Every response shape, success and error, is structured content that
// validates against the tool's output schema, and the same JSON as text.
func TestREQ_MCP_011_ResponsesConformToTheOutputSchema(t *testing.T) {
	next := 7
	searches := []func() (*tool.SearchResponse, *tool.Error){
		func() (*tool.SearchResponse, *tool.Error) {
			return &tool.SearchResponse{Outcome: tool.OutcomeOK, Results: []tool.Result{{Title: "t", URL: "https://e.org/", Snippet: "s", Date: "2026-09-01", Engines: []string{"wikipedia"}}}}, nil
		},
		func() (*tool.SearchResponse, *tool.Error) {
			return &tool.SearchResponse{Outcome: tool.OutcomePartial,
				Notices: []tool.Notice{{Code: tool.CodeEngineUnavailable, Engine: "brave", Reason: tool.ReasonRateLimited}, {Code: tool.CodeSnippetTruncated, Count: 2},
					{Code: tool.CodeEngineSkipped, Engine: "x", Reason: tool.ReasonCooldown}, {Code: tool.CodeResultsDropped, Count: 1, Reason: tool.ReasonURLInvalid},
					{Code: tool.CodeFromCache, Engine: "wikipedia"}},
				Results: []tool.Result{{Title: "t", URL: "https://e.org/", Snippet: ""}}}, nil
		},
		func() (*tool.SearchResponse, *tool.Error) {
			return &tool.SearchResponse{Outcome: tool.OutcomeEmpty}, nil
		},
		func() (*tool.SearchResponse, *tool.Error) { return nil, tool.NoEngine() },
		func() (*tool.SearchResponse, *tool.Error) { return nil, tool.SearchDeadline() },
		func() (*tool.SearchResponse, *tool.Error) {
			return nil, tool.DeniedSecret(tool.ReasonSecretInQuery, "github_token", 4)
		},
		func() (*tool.SearchResponse, *tool.Error) { return nil, nil },
	}
	fetches := []func() (*tool.FetchResponse, *tool.Error){
		func() (*tool.FetchResponse, *tool.Error) {
			return &tool.FetchResponse{Outcome: tool.OutcomeOK, URL: "https://e.org/", Title: "t", Content: "# c", Truncated: true, NextStartChar: &next,
				Notices: []tool.Notice{{Code: tool.CodeExtractionPartial}, {Code: tool.CodeCharactersRemoved, Count: 3}}}, nil
		},
		func() (*tool.FetchResponse, *tool.Error) { return nil, tool.Redirected("https://other.example/") },
		func() (*tool.FetchResponse, *tool.Error) { return nil, tool.HTTPStatus(503, 2000) },
		func() (*tool.FetchResponse, *tool.Error) { return nil, tool.UnsupportedMediaType("application/pdf") },
		func() (*tool.FetchResponse, *tool.Error) { return nil, tool.TooLarge(5 << 20) },
		func() (*tool.FetchResponse, *tool.Error) { return nil, tool.StartCharBeyond(120) },
		func() (*tool.FetchResponse, *tool.Error) { return nil, tool.Denied(tool.ReasonRobotsTxt) },
		func() (*tool.FetchResponse, *tool.Error) { return nil, tool.Busy() },
	}
	latency := int64(180)
	statuses := []func() *tool.StatusResponse{
		func() *tool.StatusResponse {
			return &tool.StatusResponse{Outcome: tool.OutcomeOK, Engines: []tool.EngineStatus{
				{ID: "wikipedia", State: tool.StateClosed, LatencyMs: &latency},
				{ID: "brave", State: tool.StateDisabled, Reason: tool.DisabledNoKey},
				{ID: "ddg", State: tool.StateHalfOpen}}}
		},
		func() *tool.StatusResponse { return &tool.StatusResponse{Outcome: tool.OutcomeOK} },
	}
	for _, structured := range []bool{true, false} {
		set := testSettings()
		set.StructuredContent = structured
		var i, j, k int
		search := &fakeSearch{
			search: func(context.Context, tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
				i++
				return searches[i-1]()
			},
			status: func(context.Context) *tool.StatusResponse { k++; return statuses[k-1]() },
		}
		fetch := &fakeFetch{fetch: func(context.Context, tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
			j++
			return fetches[j-1]()
		}}
		srv := newTestServer(t, set, search, fetch, nil, nil)
		s := startSession(t, srv)
		check := func(name, args string) {
			t.Helper()
			s.send(call(1, name, args))
			m := s.recvMsg()
			payload, _ := toolPayload(t, m)
			r := result(t, m)
			_, hasSC := r["structuredContent"]
			if hasSC != structured {
				t.Fatalf("structuredContent present = %v with StructuredContent %v", hasSC, structured)
			}
			if structured {
				if msg := validateSchema(outputOf(t, srv, name), payload, "$"); msg != "" {
					t.Errorf("%s: %s\n%s", name, msg, jsonText(payload))
				}
			} else if strings.Contains(string(srv.catalog.toolsListOf("2026-07-28")), "outputSchema") {
				t.Error("an output schema is declared without structured content")
			}
		}
		for range searches {
			check("web_search", `{"query":"q"}`)
		}
		for range fetches {
			check("web_fetch", `{"url":"https://e.org/"}`)
		}
		for range statuses {
			check("engine_status", `{}`)
		}
		// The refusals of the adapter conform too.
		check("web_search", `{"query":""}`)
		check("web_fetch", `{"url":"x"}`)
	}
}

// A service error is a tool execution error with the error object, never a
// protocol error.
func TestREQ_ERR_003_ErrorsAreToolExecutionErrors(t *testing.T) {
	errs := []*tool.Error{tool.AllFailed(), tool.Denied(tool.ReasonEgress), tool.Redirected("https://example.org/new"), tool.ExtractionFailed(), tool.TooLarge(1)}
	for _, e := range errs {
		fetch := &fakeFetch{fetch: func(context.Context, tool.FetchRequest) (*tool.FetchResponse, *tool.Error) { return nil, e }}
		s := startSession(t, newTestServer(t, testSettings(), &fakeSearch{}, fetch, nil, nil))
		s.send(call(1, "web_fetch", `{"url":"https://example.org/"}`))
		m := s.recvMsg()
		if _, isProtocol := m["error"]; isProtocol {
			t.Fatalf("protocol error for %v", e)
		}
		got := toolError(t, m)
		want, _ := json.Marshal(tool.ErrorEnvelope{Error: e})
		var wantMap map[string]any
		json.Unmarshal(want, &wantMap)
		if !reflect.DeepEqual(got, wantMap["error"]) {
			t.Errorf("error object %v, want %v", got, wantMap["error"])
		}
	}
}

// The answers of the book's tutorials, byte for byte: field order, no HTML
// escaping, the envelope order resultType, content, structuredContent,
// isError.
func TestREQ_MCP_011_TutorialAnswersAreExact(t *testing.T) {
	search := &fakeSearch{
		search: func(context.Context, tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
			return &tool.SearchResponse{Outcome: tool.OutcomeOK, Notices: []tool.Notice{}, Results: []tool.Result{
				{Date: "2026-09-01", Snippet: "Rust is a general-purpose programming language emphasizing performance, type safety, and concurrency. It enforces memory safety—meaning that all references", Title: "Rust (programming language)", URL: "https://en.wikipedia.org/wiki/Rust_(programming_language)"},
				{Date: "2026-07-19", Snippet: "Rust and Bone is a 2012 romantic drama film", Title: "Rust & Bone", URL: "https://en.wikipedia.org/wiki/Rust_&_Bone"},
			}}, nil
		},
		status: func(context.Context) *tool.StatusResponse {
			return &tool.StatusResponse{Outcome: tool.OutcomeOK, Engines: []tool.EngineStatus{{ID: "wikipedia", State: tool.StateClosed}}}
		},
	}
	fetch := &fakeFetch{fetch: func(context.Context, tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
		return nil, tool.Redirected("https://example.org/new")
	}}
	s := startSession(t, newTestServer(t, testSettings(), search, fetch, nil, nil))
	metaTutorial := `"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": {"name": "tutorial", "version": "1"}, "io.modelcontextprotocol/clientCapabilities": {}}`
	cases := []struct{ request, answer string }{
		{
			`{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "web_search", "arguments": {"query": "rust programming language", "max_results": 5}, ` + metaTutorial + `}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"notices\":[],\"outcome\":\"ok\",\"results\":[{\"date\":\"2026-09-01\",\"snippet\":\"Rust is a general-purpose programming language emphasizing performance, type safety, and concurrency. It enforces memory safety—meaning that all references\",\"title\":\"Rust (programming language)\",\"url\":\"https://en.wikipedia.org/wiki/Rust_(programming_language)\"},{\"date\":\"2026-07-19\",\"snippet\":\"Rust and Bone is a 2012 romantic drama film\",\"title\":\"Rust & Bone\",\"url\":\"https://en.wikipedia.org/wiki/Rust_&_Bone\"}]}"}],"structuredContent":{"notices":[],"outcome":"ok","results":[{"date":"2026-09-01","snippet":"Rust is a general-purpose programming language emphasizing performance, type safety, and concurrency. It enforces memory safety—meaning that all references","title":"Rust (programming language)","url":"https://en.wikipedia.org/wiki/Rust_(programming_language)"},{"date":"2026-07-19","snippet":"Rust and Bone is a 2012 romantic drama film","title":"Rust & Bone","url":"https://en.wikipedia.org/wiki/Rust_&_Bone"}]},"isError":false}}`,
		},
		{
			`{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "engine_status", "arguments": {}, ` + metaTutorial + `}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"engines\":[{\"id\":\"wikipedia\",\"latency_ms\":null,\"state\":\"closed\"}],\"notices\":[],\"outcome\":\"ok\"}"}],"structuredContent":{"engines":[{"id":"wikipedia","latency_ms":null,"state":"closed"}],"notices":[],"outcome":"ok"},"isError":false}}`,
		},
		{
			`{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "web_fetch", "arguments": {"url": "https://example.org/moved"}, ` + metaTutorial + `}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"error\":{\"detail\":{\"location\":\"https://example.org/new\"},\"kind\":\"redirected\",\"message\":\"the page moved to another host; see detail.location\"}}"}],"structuredContent":{"error":{"detail":{"location":"https://example.org/new"},"kind":"redirected","message":"the page moved to another host; see detail.location"}},"isError":true}}`,
		},
	}
	for _, tc := range cases {
		s.send(tc.request)
		if got := string(s.recv()); got != tc.answer {
			t.Errorf("answer differs:\n got %s\nwant %s", got, tc.answer)
		}
	}
}
