package tool

// Outcome is the result of a call that did not end with an error
// (external design §7).
type Outcome string

// The three outcomes.
const (
	OutcomeOK      Outcome = "ok"      // every engine asked answered and results remain
	OutcomePartial Outcome = "partial" // results remain, but at least one engine failed
	OutcomeEmpty   Outcome = "empty"   // at least one engine answered and nothing remained
)

// Kind is the kind of an error (REQ-ERR-002). The set is closed.
type Kind string

// The six error kinds.
const (
	KindInvalidRequest     Kind = "invalid_request"
	KindDenied             Kind = "denied"
	KindUnavailable        Kind = "unavailable"
	KindRedirected         Kind = "redirected"
	KindUnsupportedContent Kind = "unsupported_content"
	KindTooLarge           Kind = "too_large"
)

// Reason is the detail.reason of an error or the reason of a notice.
type Reason string

// Reasons of denied errors.
const (
	ReasonEgress          Reason = "egress"
	ReasonRobotsTxt       Reason = "robots_txt"
	ReasonScheme          Reason = "scheme"
	ReasonStrictMode      Reason = "strict_mode"
	ReasonCredentialInURL Reason = "credential_in_url"
	ReasonPlugin          Reason = "plugin" // an RSP plugin blocked the content
	ReasonSecretInQuery   Reason = "secret_in_query"
	ReasonSecretInURL     Reason = "secret_in_url"
)

// Reasons of unavailable errors.
const (
	ReasonNoEngine    Reason = "no_engine"
	ReasonAllFailed   Reason = "all_failed"
	ReasonRateLimited Reason = "rate_limited"
	ReasonNetwork     Reason = "network"
	ReasonDeadline    Reason = "deadline"
	ReasonHTTPStatus  Reason = "http_status"
	ReasonBusy        Reason = "busy"
)

// Reasons of unsupported_content errors.
const (
	ReasonMediaType        Reason = "media_type"
	ReasonExtractionFailed Reason = "extraction_failed"
)

// Engine error classes (REQ-ENG-006): the reason of an engine_unavailable
// notice. ReasonRateLimited above is one of them too.
const (
	ReasonTimeout        Reason = "timeout"
	ReasonBlocked        Reason = "blocked"
	ReasonParseFailure   Reason = "parse_failure"
	ReasonAuthFailure    Reason = "auth_failure"
	ReasonRequestFailure Reason = "request_failure"
)

// Reasons of engine_skipped notices (ReasonRateLimited is one of them too).
const (
	ReasonTimeRange    Reason = "time_range"
	ReasonLanguage     Reason = "language"
	ReasonQueryTooLong Reason = "query_too_long"
	ReasonCooldown     Reason = "cooldown"
)

// Reasons of results_dropped notices.
const (
	ReasonInstructionLike Reason = "instruction_like_content"
	ReasonURLTooLong      Reason = "url_too_long"
	ReasonURLInvalid      Reason = "url_invalid"
	ReasonPluginBlocked   Reason = "plugin_blocked"
)

// EngineClasses lists the engine error classes in a fixed order, in a new
// slice: the vocabulary is not the caller's to change.
func EngineClasses() []Reason {
	return []Reason{ReasonTimeout, ReasonRateLimited, ReasonBlocked, ReasonParseFailure, ReasonAuthFailure, ReasonRequestFailure}
}

// Code is the code of a notice.
type Code string

// The notice codes (external design §3.1).
const (
	CodeEngineUnavailable      Code = "engine_unavailable"
	CodeEngineSkipped          Code = "engine_skipped"
	CodeSnippetTruncated       Code = "snippet_truncated"
	CodeTitleTruncated         Code = "title_truncated"
	CodeCharactersRemoved      Code = "characters_removed"
	CodeInstructionLikeContent Code = "instruction_like_content"
	CodeResultsDropped         Code = "results_dropped"
	CodeCredentialMasked       Code = "credential_masked"
	CodeExtractionPartial      Code = "extraction_partial"
	CodeFromCache              Code = "from_cache"
	CodeContentRedacted        Code = "content_redacted" // an RSP plugin redacted intervals
	CodePluginFlagged          Code = "plugin_flagged"   // an RSP plugin flagged the content
	CodePluginFailed           Code = "plugin_failed"    // a plugin failed and on_error = allow let it pass
)

// Category is a search category.
type Category string

// The categories of the web_search vocabulary, in schema order.
const (
	CategoryGeneral Category = "general"
	CategoryNews    Category = "news"
	CategoryScience Category = "science"
	CategoryCode    Category = "code"
)

// Categories lists every category in the order the schema offers them, in
// a new slice.
func Categories() []Category {
	return []Category{CategoryGeneral, CategoryNews, CategoryScience, CategoryCode}
}

// TimeRange is the optional period of a search.
type TimeRange string

// The periods; TimeRangeNone means no period was asked for.
const (
	TimeRangeNone  TimeRange = ""
	TimeRangeDay   TimeRange = "day"
	TimeRangeWeek  TimeRange = "week"
	TimeRangeMonth TimeRange = "month"
	TimeRangeYear  TimeRange = "year"
)

// TimeRanges lists the periods in schema order, in a new slice.
func TimeRanges() []TimeRange {
	return []TimeRange{TimeRangeDay, TimeRangeWeek, TimeRangeMonth, TimeRangeYear}
}

// EngineState is the circuit state of an engine in engine_status.
type EngineState string

// The four states.
const (
	StateDisabled EngineState = "disabled"
	StateClosed   EngineState = "closed"
	StateOpen     EngineState = "open"
	StateHalfOpen EngineState = "half_open"
)

// DisabledReason says why an engine is disabled.
type DisabledReason string

// The two reasons of a disabled engine.
const (
	DisabledByOperator DisabledReason = "disabled"
	DisabledNoKey      DisabledReason = "no_credential"
)

// The names of the tools.
const (
	ToolWebSearch    = "web_search"
	ToolWebFetch     = "web_fetch"
	ToolEngineStatus = "engine_status"
)
