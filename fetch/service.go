package fetch

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"rypsok/egress"
	"rypsok/internal/semaphore"
	"rypsok/robots"
	"rypsok/secrets"
	"rypsok/tool"
)

// minMaxChars is the smallest max_chars (LIM-F1's range).
const minMaxChars = 500

// extractionReserve is LIM-F5 − LIM-F4: the time a call may spend after
// the network deadline, on waiting for a parse permit and on extraction.
const extractionReserve = time.Second

// maskText is what secrets.MaskText puts in place of a finding, and
// maskEscaped the same text percent-encoded, so that a masked URL still
// parses as the URL it was.
const (
	maskText    = "[redacted]"
	maskEscaped = "%5Bredacted%5D"
)

// robotsKeptBytes bounds the memory of the robots.txt verdicts of all
// origins together. LIM-F15 bounds their number, but one origin's rules can
// reach about 1.7 MB, so a steered agent visiting many hosts could
// otherwise hold far more than the memory estimate allows for; 2 MiB keeps
// hundreds of ordinary files (a few KiB each). The check's base cost
// includes it.
const robotsKeptBytes = 2 << 20

// New builds the service: one fetch client (the agent-directed egress
// profile of s.Policy) for pages and robots.txt reads, one robots.txt cache,
// the strict-mode set and the concurrency limits.
func New(s Settings, d Deps) *Service {
	s = s.withDefaults()
	svc := &Service{
		set:     s,
		log:     d.Logger,
		now:     d.Now,
		strict:  newURLSet(s.StrictModeURLs),
		fetches: semaphore.New(s.FetchesInFlight),
		hosts:   newHostLimiter(),
		parsing: semaphore.New(s.ParsingInFlight),
		process: process,
		judge:   d.Judge,
	}
	if svc.log == nil {
		svc.log = slog.New(slog.DiscardHandler)
	}
	svc.now = clockOr(svc.now)
	svc.client = egress.NewFetchClient(egress.FetchClientOptions{
		Policy:         &svc.set.Policy,
		ConnectTimeout: s.ConnectTimeout,
		Resolver:       d.Resolver,
		Roots:          d.Roots,
		UserAgent:      d.UserAgent,
	})
	svc.robots = robots.NewChecker(robots.Options{
		Get:          svc.getRobots,
		MaxEntries:   s.RobotsCacheEntries,
		MaxKeptBytes: robotsKeptBytes,
		Now:          svc.now,
	})
	return svc
}

// Remember records a URL web_search returned, for strict mode. Outside
// strict mode nothing is kept.
func (s *Service) Remember(url string) {
	if s.set.StrictMode {
		s.strict.add(url)
	}
}

// Fetch runs one fetch. The error is nil or a *tool.Error; when ctx is
// cancelled the caller discards whatever is returned.
func (s *Service) Fetch(ctx context.Context, req tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
	start := s.now()
	callCtx, cancelCall := context.WithTimeout(ctx, s.set.Deadline+extractionReserve) // LIM-F5
	defer cancelCall()
	netCtx, cancelNet := context.WithTimeout(callCtx, s.set.Deadline) // LIM-F4
	defer cancelNet()

	maxChars, startChar, terr := s.budget(req)
	if terr != nil {
		return nil, terr
	}
	u, terr := parseTarget(req.URL)
	if terr != nil {
		return nil, terr
	}
	text, masked, terr := s.checkSecrets(ctx, req.URL)
	if terr != nil {
		return nil, terr
	}
	if masked > 0 {
		if u, terr = parseTarget(text); terr != nil {
			f := secrets.Scan(req.URL)
			return nil, tool.DeniedSecret(tool.ReasonSecretInURL, f[0].Kind, f[0].Start)
		}
	}
	if s.set.StrictMode && !s.strict.has(req.URL) && !s.set.Policy.AllowedByRule(u) {
		return nil, tool.Denied(tool.ReasonStrictMode)
	}
	first, terr := s.admit(ctx, text, u)
	if terr != nil {
		return nil, terr
	}

	got, terr := s.retrieve(ctx, netCtx, first, start)
	if terr != nil {
		return nil, terr
	}
	kind, mediaType := mediaTypeOf(got.contentType, got.body)
	s.logFetched(ctx, got, start, kind)
	if kind == kindUnsupported {
		return nil, tool.UnsupportedMediaType(mediaType)
	}

	pg, terr := s.extract(ctx, callCtx, got, kind, startChar+maxChars)
	if terr != nil {
		return nil, terr
	}
	// RSP on_retrieve judges the whole page before it is cut, so that
	// continuation offsets count in the text as it may be returned.
	var judged tool.JudgeSummary
	if pg.content, terr = s.judgePage(callCtx, tool.HookOnRetrieve, pg.content, got.hop.text, pg.title, &judged); terr != nil {
		return nil, terr
	}
	part, total, more := window(pg.content, startChar, maxChars)
	// The answer keeps only its part, not the page it was cut from.
	part = strings.Clone(part)
	if startChar >= total {
		return nil, tool.StartCharBeyond(total)
	}
	// RSP on_response judges the slice about to be returned.
	if part, terr = s.judgePage(callCtx, tool.HookOnResponse, part, got.hop.text, pg.title, &judged); terr != nil {
		return nil, terr
	}
	resp := &tool.FetchResponse{
		URL:       got.hop.text,
		Title:     pg.title,
		Content:   part,
		Truncated: more,
		Notices:   append(notices(masked, pg), judged.Notices()...),
		Outcome:   tool.OutcomeOK,
	}
	if more {
		next := startChar + utf8.RuneCountInString(part)
		resp.NextStartChar = &next
	}
	return resp, nil
}

// budget checks max_chars and start_char again (the protocol layer
// validated them) and fills a missing max_chars with the default.
func (s *Service) budget(req tool.FetchRequest) (maxChars, startChar int, terr *tool.Error) {
	maxChars = req.MaxChars
	if maxChars == 0 {
		maxChars = s.set.MaxChars
	}
	if maxChars < minMaxChars || maxChars > s.set.MaxCharsCeiling {
		return 0, 0, tool.InvalidRange("max_chars", minMaxChars, int64(s.set.MaxCharsCeiling))
	}
	if req.StartChar < 0 {
		return 0, 0, tool.InvalidRange("start_char", 0, math.MaxInt32)
	}
	return maxChars, req.StartChar, nil
}

// parseTarget is the form check of a URL (step 1): at most LIM-F9
// characters, absolute, http or https, with a host.
func parseTarget(raw string) (*url.URL, *tool.Error) {
	if len(raw) > 4*tool.MaxURLChars || utf8.RuneCountInString(raw) > tool.MaxURLChars {
		return nil, tool.URLTooLong()
	}
	u, err := egress.ParseURL(raw)
	if err != nil || u.Scheme == "" {
		return nil, tool.InvalidURL()
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, tool.Denied(tool.ReasonScheme)
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, tool.InvalidURL()
	}
	canonicalize(u)
	return u, nil
}

// checkSecrets is the privacy check of the URL (REQ-PRIV-002): the URL to
// use (masked in mask mode, with the mask percent-encoded) and the number
// of credentials masked.
func (s *Service) checkSecrets(ctx context.Context, raw string) (string, int, *tool.Error) {
	mode := s.set.SecretDetection
	if mode == secrets.Off {
		return raw, 0, nil
	}
	found := secrets.Scan(raw)
	if len(found) == 0 {
		return raw, 0, nil
	}
	switch mode {
	case secrets.Warn:
		s.log.WarnContext(ctx, "secret_in_url", "kind", found[0].Kind)
		return raw, 0, nil
	case secrets.Mask:
		masked, n := secrets.MaskText(raw)
		return strings.ReplaceAll(masked, maskText, maskEscaped), n, nil
	}
	return "", 0, tool.DeniedSecret(tool.ReasonSecretInURL, found[0].Kind, found[0].Start)
}

// admit applies the scheme policy and the egress policy to the URL of the
// first request (step 4): text is the URL as given (or masked), returned as
// the response's url unless the scheme was upgraded.
func (s *Service) admit(ctx context.Context, text string, u *url.URL) (hop, *tool.Error) {
	h := hop{u: u, text: text}
	if up, ok := s.upgrade(u); ok {
		h = hop{u: up, text: up.String(), upgraded: true}
		if utf8.RuneCountInString(h.text) > tool.MaxURLChars {
			return hop{}, tool.URLTooLong()
		}
	}
	if d := s.set.Policy.CheckURL(h.u); d != nil {
		s.logRefused(ctx, d)
		return hop{}, tool.Denied(d.Reason)
	}
	return h, nil
}

// notices lists the notices of an answer in their fixed order.
func notices(masked int, pg page) []tool.Notice {
	out := []tool.Notice{}
	if masked > 0 {
		out = append(out, tool.Notice{Code: tool.CodeCredentialMasked, Count: masked})
	}
	if pg.partial {
		out = append(out, tool.Notice{Code: tool.CodeExtractionPartial})
	}
	if pg.titleTruncated {
		out = append(out, tool.Notice{Code: tool.CodeTitleTruncated, Count: 1})
	}
	if pg.removed > 0 {
		out = append(out, tool.Notice{Code: tool.CodeCharactersRemoved, Count: pg.removed})
	}
	if pg.instructionLike {
		out = append(out, tool.Notice{Code: tool.CodeInstructionLikeContent, Count: 1})
	}
	return out
}

// extract runs process off the request goroutine under the parsing limit
// (REQ-PAGE-008). The wait for a permit and the work both end with the
// call's LIM-F5 budget; work still running then finishes on its own, holding
// its permit, and its result is dropped.
func (s *Service) extract(ctx, callCtx context.Context, got *response, kind mediaKind, wantChars int) (page, *tool.Error) {
	if !s.parsing.Acquire(callCtx) {
		return page{}, ended(ctx, tool.Busy())
	}
	type outcome struct {
		pg       page
		err      error
		panicked bool
	}
	done := make(chan outcome, 1)
	go func() {
		defer s.parsing.Release()
		defer func() {
			if r := recover(); r != nil {
				s.log.ErrorContext(ctx, "extraction_panic")
				done <- outcome{panicked: true}
			}
		}()
		// The body is read by process only: once it is decoded nothing else
		// holds it, so its megabytes go back before the parse is over.
		body := got.body
		got.body = nil
		var pg page
		var err error
		if kind == kindPDF {
			pg, err = processPDF(callCtx, body, wantChars, s.set.TitleMaxChars)
		} else {
			pg, err = s.process(body, got.contentType, kind, got.hop.u, s.set.TitleMaxChars, s.set.StrictHidden)
		}
		done <- outcome{pg: pg, err: err}
	}()
	select {
	case o := <-done:
		if !o.panicked && errors.Is(o.err, errShownByScripts) {
			return page{}, tool.ExtractionFailedScripts()
		}
		if terr := pdfError(o.err); !o.panicked && terr != nil {
			return page{}, terr
		}
		if o.panicked || o.err != nil {
			return page{}, tool.ExtractionFailed()
		}
		return o.pg, nil
	case <-callCtx.Done():
		return page{}, ended(ctx, tool.FetchDeadline())
	}
}

// judgePage has Deps.Judge look at content (the whole page at on_retrieve,
// the returned slice at on_response) and returns it as it may be returned.
// A block ends the call denied with reason plugin, naming the plugin (and
// the failure class when a failure was treated as a block): the content is
// never returned. Without a judge the content is returned as it is.
func (s *Service) judgePage(ctx context.Context, hook, content, pageURL, title string, sum *tool.JudgeSummary) (string, *tool.Error) {
	if s.judge == nil {
		return content, nil
	}
	item := tool.JudgeItem{Content: content, Metadata: map[string]any{"tool": tool.ToolWebFetch, "url": pageURL, "title": title}}
	vs := s.judge.Judge(ctx, hook, tool.ToolWebFetch, []tool.JudgeItem{item})
	if len(vs) != 1 {
		return "", tool.DeniedPlugin("", "timeout") // nothing judged is nothing returned
	}
	v := vs[0]
	sum.Add(v)
	if v.Blocked {
		return "", tool.DeniedPlugin(v.BlockedBy, v.Failure)
	}
	return v.Content, nil
}
