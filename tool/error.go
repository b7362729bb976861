package tool

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxMessageChars is LIM-I4: the longest notice or error message.
const MaxMessageChars = 200

// MaxURLChars is LIM-F9: the longest URL rypsok accepts or returns.
const MaxURLChars = 2048

// MaxMediaTypeChars bounds the media_type of an unsupported_content error.
const MaxMediaTypeChars = 100

// Error is a tool execution error (REQ-ERR-002): a kind, a message that says
// what the caller can change, and a detail object with fixed keys. Build it
// with the constructors of this package; they take no external text except
// the two external identifiers the book admits (a redirect location and a
// media type), which they validate and bound.
type Error struct {
	Detail  Detail `json:"detail"`
	Kind    Kind   `json:"kind"`
	Message string `json:"message"`
}

// Detail is the detail object of an error. Only the keys that are set are
// written.
type Detail struct {
	Allowed      []string `json:"allowed,omitempty"`
	Failure      string   `json:"failure,omitempty"`
	Kind         string   `json:"kind,omitempty"`
	LimitBytes   int64    `json:"limit_bytes,omitempty"`
	Location     string   `json:"location,omitempty"`
	Max          *int64   `json:"max,omitempty"`
	MediaType    string   `json:"media_type,omitempty"`
	Min          *int64   `json:"min,omitempty"`
	Parameter    string   `json:"parameter,omitempty"`
	Plugin       string   `json:"plugin,omitempty"`
	Position     *int     `json:"position,omitempty"`
	Reason       Reason   `json:"reason,omitempty"`
	RetryAfterMs *int64   `json:"retry_after_ms,omitempty"`
	Status       int      `json:"status,omitempty"`
}

// ErrorEnvelope is the structured content of an error: {"error": {...}}.
type ErrorEnvelope struct {
	Error *Error `json:"error"`
}

// Error implements the error interface with the kind and the message.
func (e *Error) Error() string { return string(e.Kind) + ": " + e.Message }

// bound cuts a message to LIM-I4 characters at a character boundary.
func bound(s string) string {
	if utf8.RuneCountInString(s) <= MaxMessageChars {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxMessageChars {
			return s[:i]
		}
		n++
	}
	return s
}

func newError(k Kind, msg string, d Detail) *Error {
	return &Error{Kind: k, Message: bound(msg), Detail: d}
}

func i64(v int64) *int64 { return &v }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// safeName keeps a parameter name only when it is a plain identifier of the
// schema's shape, so that a caller's stray text is never echoed.
func safeName(s string) string {
	if s == "" || len(s) > 64 {
		return ""
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return ""
		}
	}
	return s
}

// InvalidRange refuses an integer parameter outside [min, max].
func InvalidRange(param string, min, max int64) *Error {
	return newError(KindInvalidRequest,
		param+" must be between "+itoa(min)+" and "+itoa(max),
		Detail{Parameter: param, Min: i64(min), Max: i64(max)})
}

// InvalidLength refuses a text parameter whose length in characters lies
// outside [min, max].
func InvalidLength(param string, min, max int64) *Error {
	return newError(KindInvalidRequest,
		param+" must have between "+itoa(min)+" and "+itoa(max)+" characters",
		Detail{Parameter: param, Min: i64(min), Max: i64(max)})
}

// InvalidEnum refuses a value that is not one of allowed.
func InvalidEnum(param string, allowed []string) *Error {
	a := append([]string(nil), allowed...)
	return newError(KindInvalidRequest,
		param+" must be one of: "+strings.Join(a, ", "),
		Detail{Parameter: param, Allowed: a})
}

// InvalidType refuses a parameter of the wrong JSON type; want is a fixed
// phrase such as "an integer" or "a string".
func InvalidType(param, want string) *Error {
	return newError(KindInvalidRequest, param+" must be "+want, Detail{Parameter: param})
}

// MissingParameter refuses a call without a required parameter.
func MissingParameter(param string) *Error {
	return newError(KindInvalidRequest, param+" is required", Detail{Parameter: param})
}

// UnknownParameter refuses a property the schema does not list. The name is
// kept in detail.parameter only when it looks like a parameter name; allowed
// lists the parameters the tool accepts.
func UnknownParameter(name string, allowed []string) *Error {
	a := append([]string(nil), allowed...)
	msg := "unknown parameter; the parameters are: " + strings.Join(a, ", ")
	if len(a) == 0 {
		msg = "this tool takes no parameters; call it with {}"
	}
	return newError(KindInvalidRequest, msg, Detail{Parameter: safeName(name), Allowed: a})
}

// InvalidArguments refuses arguments that are not a JSON object.
func InvalidArguments() *Error {
	return newError(KindInvalidRequest, "arguments must be a JSON object", Detail{})
}

// URLTooLong refuses a URL above LIM-F9.
func URLTooLong() *Error {
	return newError(KindInvalidRequest,
		"url must have at most "+itoa(MaxURLChars)+" characters",
		Detail{Parameter: "url", Max: i64(MaxURLChars)})
}

// InvalidURL refuses a url argument that is not an absolute URL.
func InvalidURL() *Error {
	return newError(KindInvalidRequest, "url must be an absolute http or https URL", Detail{Parameter: "url"})
}

// StartCharBeyond refuses a start_char at or beyond the end of the content,
// stating the content length in characters.
func StartCharBeyond(contentChars int) *Error {
	max := int64(contentChars) - 1
	if max < 0 {
		max = 0
	}
	return newError(KindInvalidRequest,
		"start_char must be below the content length of "+itoa(int64(contentChars))+" characters",
		Detail{Parameter: "start_char", Min: i64(0), Max: i64(max)})
}

var deniedMessages = map[Reason]string{
	ReasonEgress:          "the destination is not allowed by the egress policy",
	ReasonRobotsTxt:       "the site's robots.txt disallows this page for rypsok; choose another page",
	ReasonScheme:          "the URL scheme is not allowed; use an https URL",
	ReasonStrictMode:      "strict mode: fetch a URL that web_search returned, or one the operator allows",
	ReasonCredentialInURL: "the URL carries credentials; remove them",
}

// Denied refuses a call by policy. For the secret reasons use DeniedSecret.
func Denied(r Reason) *Error {
	msg, ok := deniedMessages[r]
	if !ok {
		msg = "the call is not allowed by policy"
	}
	return newError(KindDenied, msg, Detail{Reason: r})
}

// DeniedPlugin refuses a page that a security plugin of the operator's (an
// RSP plugin) blocked; failure is the plugin's failure class when its
// failure was treated as a block (on_error = block), else "". plugin is
// the operator's configured name, never text of the plugin's.
func DeniedPlugin(plugin, failure string) *Error {
	msg := "a security plugin configured by the operator blocked this content; choose another page"
	if failure != "" {
		msg = "a security plugin configured by the operator failed and the operator blocks what it cannot judge; retry later or choose another page"
	}
	return newError(KindDenied, msg, Detail{Reason: ReasonPlugin, Plugin: pluginName(plugin), Failure: safeName(failure)})
}

// DeniedSchemeRetry is denied with reason scheme when an http URL was
// retried over https and that request failed.
func DeniedSchemeRetry() *Error {
	return newError(KindDenied,
		"the http URL was retried over https and that request failed; plain http is not allowed here",
		Detail{Reason: ReasonScheme})
}

// DeniedSecret refuses a query or URL that carries what looks like a
// credential: reason is ReasonSecretInQuery or ReasonSecretInURL, kind a
// name from the secret check's vocabulary and position the character offset
// of the finding. The value is never part of the error.
func DeniedSecret(r Reason, kind string, position int) *Error {
	where := "the query"
	if r == ReasonSecretInURL {
		where = "the URL"
	}
	p := position
	return newError(KindDenied,
		where+" looks like it carries a credential ("+safeName(kind)+") at character "+itoa(int64(position))+"; remove it",
		Detail{Reason: r, Kind: safeName(kind), Position: &p})
}

// NoEngine: no enabled, active engine serves the category.
func NoEngine() *Error {
	return newError(KindUnavailable,
		"no active engine serves this category; use another category",
		Detail{Reason: ReasonNoEngine})
}

// AllFailed: every engine asked failed.
func AllFailed() *Error {
	return newError(KindUnavailable, "every engine failed; retry later", Detail{Reason: ReasonAllFailed})
}

// SearchDeadline: no engine answered before the search deadline.
func SearchDeadline() *Error {
	return newError(KindUnavailable, "no engine answered before the deadline; retry later", Detail{Reason: ReasonDeadline})
}

// FetchDeadline: the page was not retrieved before the fetch deadline.
func FetchDeadline() *Error {
	return newError(KindUnavailable, "the page was not retrieved before the deadline; retry later", Detail{Reason: ReasonDeadline})
}

// RateLimited: the tool's rate limit is used up; retryAfterMs says when a
// call will be accepted again.
func RateLimited(retryAfterMs int64) *Error {
	return newError(KindUnavailable, "the rate limit of this tool is reached; retry later",
		Detail{Reason: ReasonRateLimited, RetryAfterMs: i64(retryAfterMs)})
}

// EnginesRateLimited: every engine that could answer is at its provider's
// rate limit or concurrency cap; retryAfterMs is set when known.
func EnginesRateLimited(retryAfterMs int64) *Error {
	d := Detail{Reason: ReasonRateLimited}
	if retryAfterMs > 0 {
		d.RetryAfterMs = i64(retryAfterMs)
	}
	return newError(KindUnavailable, "every engine is at its provider's rate limit; retry later", d)
}

// Busy: a concurrency limit is full and the deadline would be missed.
func Busy() *Error {
	return newError(KindUnavailable, "rypsok is busy with other fetches; retry later", Detail{Reason: ReasonBusy})
}

// Stopping: the process could not build its services and is stopping; the
// runtime that started it may start it again once the operator has fixed
// what its log names.
func Stopping() *Error {
	return newError(KindUnavailable, "rypsok cannot serve this call and is stopping; its log says why; retry after it is restarted", Detail{Reason: ReasonBusy})
}

// Network: the site could not be reached, whatever the cause.
func Network() *Error {
	return newError(KindUnavailable, "the site could not be reached; retry later or choose another page", Detail{Reason: ReasonNetwork})
}

// HTTPStatusRetryable reports whether retrying can help for a status
// (408, 425, 429 and 5xx).
func HTTPStatusRetryable(status int) bool {
	return status == 408 || status == 425 || status == 429 || status >= 500 && status <= 599
}

// HTTPStatus: the site answered 4xx or 5xx. retryAfterMs is used only when
// retrying can help and it is positive.
func HTTPStatus(status int, retryAfterMs int64) *Error {
	d := Detail{Reason: ReasonHTTPStatus, Status: status}
	var msg string
	if HTTPStatusRetryable(status) {
		msg = "the site answered with status " + itoa(int64(status)) + "; retry later"
		if retryAfterMs > 0 {
			d.RetryAfterMs = i64(retryAfterMs)
		}
	} else {
		msg = "the site refused the request or has no such page (status " + itoa(int64(status)) + "); retrying the same URL will not help"
	}
	return newError(KindUnavailable, msg, d)
}

// Redirected: the page moved to another host that passes the egress policy.
// location must be an absolute http(s) URL of at most LIM-F9 characters;
// a location that is not is never disclosed (the caller gets Denied(egress)).
func Redirected(location string) *Error {
	if location == "" || utf8.RuneCountInString(location) > MaxURLChars ||
		!(strings.HasPrefix(location, "https://") || strings.HasPrefix(location, "http://")) {
		return Denied(ReasonEgress)
	}
	return newError(KindRedirected, "the page moved to another host; see detail.location", Detail{Location: location})
}

// UnsupportedMediaType: the media type cannot be extracted. mediaType is
// reduced to its type/subtype (no parameters), to the token characters of a
// media type, and bounded.
func UnsupportedMediaType(mediaType string) *Error {
	mediaType, _, _ = strings.Cut(mediaType, ";") // the type, without parameters
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(mediaType)) {
		if b.Len() >= MaxMediaTypeChars {
			break
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("/+-.!#$&^_", r) {
			b.WriteRune(r)
		}
	}
	mt := b.String()
	if mt == "" {
		mt = "unknown"
	}
	return newError(KindUnsupportedContent,
		"this media type cannot be read; only HTML, XHTML, plain text, Markdown and PDF are; choose another page",
		Detail{Reason: ReasonMediaType, MediaType: mt})
}

// ExtractionFailed: nothing could be extracted from the document.
func ExtractionFailed() *Error {
	return newError(KindUnsupportedContent, "no readable content could be extracted from this page; choose another page",
		Detail{Reason: ReasonExtractionFailed})
}

// ExtractionFailedScripts: nothing could be extracted from a document
// that shows its text only through scripts: text hidden until a script
// shows it, or in noscript fallbacks, is never read, and scripts are
// never run.
func ExtractionFailedScripts() *Error {
	return newError(KindUnsupportedContent,
		"this page shows its text only through scripts, which are never run, and hidden or noscript text is never read; choose another page",
		Detail{Reason: ReasonExtractionFailed})
}

// TooLarge: the response exceeded the byte limit.
func TooLarge(limitBytes int64) *Error {
	return newError(KindTooLarge,
		"the page is larger than the limit of "+itoa(limitBytes)+" bytes; choose another page",
		Detail{LimitBytes: limitBytes})
}

// pluginName keeps an RSP plugin name of its configured form
// ([a-z][a-z0-9_-]{0,31}), else nothing.
func pluginName(s string) string {
	if s == "" || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return ""
		}
	}
	return s
}
