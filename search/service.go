package search

import (
	"context"
	"errors"
	"log/slog"
	"sort"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"rypsok/boundary"
	"rypsok/internal/semaphore"
	"rypsok/secrets"
	"rypsok/tool"
)

// slot is one configured engine with its controls: the provider's rate
// (bucket) and concurrency (sem), and its circuit.
type slot struct {
	cfg    EngineConfig
	eng    Engine // nil when disabled
	props  Properties
	bucket *bucket
	sem    semaphore.Semaphore
	circ   *circuit
}

// Service answers web_search and engine_status.
type Service struct {
	set      Settings
	deps     Deps
	log      *slog.Logger
	now      func() time.Time
	slots    []*slot // identifier order
	byPref   []*slot // preference order, then identifier
	outbound semaphore.Semaphore
	policy   circuitPolicy
	cache    *resultCache // nil when [cache] is off
}

// New builds the engines of s. A number left zero takes its default
// (DefaultSettings). An engine type with no driver is an error.
func New(s Settings, d Deps) (*Service, error) {
	s = s.withDefaults()
	if d.gates == nil {
		d.gates = &gateRegistry{}
	}
	engines := make([]Engine, len(s.Engines))
	for i, cfg := range s.Engines {
		if cfg.Disabled != "" {
			continue
		}
		e, err := newDriver(cfg, s, d)
		if err != nil {
			return nil, err
		}
		engines[i] = e
	}
	return assemble(s, d, engines), nil
}

// assemble builds the service around already-built engines (engines[i] for
// s.Engines[i]; nil for a disabled one).
func assemble(s Settings, d Deps, engines []Engine) *Service {
	s = s.withDefaults()
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	d.Now = clockOr(d.Now)
	svc := &Service{
		set: s, deps: d, log: d.Logger, now: d.Now,
		outbound: semaphore.New(s.OutboundInFlight),
		policy:   circuitPolicy{failuresToOpen: s.FailuresToOpen, first: s.FirstCooldown, max: s.MaxCooldown},
		cache:    newResultCache(s, d.Now),
	}
	// Engines whose provider counts one credential, or one address, share
	// one limiter: the provider's limit is not multiplied by configuring
	// several engines of it.
	type limits struct {
		bucket *bucket
		sem    semaphore.Semaphore
	}
	shared := map[string]limits{}
	for i, cfg := range s.Engines {
		sl := &slot{cfg: cfg, circ: &circuit{state: tool.StateClosed}}
		if e := engines[i]; e != nil && cfg.Disabled == "" {
			sl.eng = e
			sl.props = e.Properties()
			inFlight := s.PerEngineInFlight
			if sl.props.MaxInFlight > 0 && sl.props.MaxInFlight < inFlight {
				inFlight = sl.props.MaxInFlight
			}
			key := ""
			if k, ok := e.(limitKeyed); ok {
				key = k.limitKey()
			}
			if l, ok := shared[key]; ok && key != "" {
				sl.bucket, sl.sem = l.bucket, l.sem
			} else {
				sl.bucket = bucketFor(sl.props, d.Now)
				sl.sem = semaphore.New(inFlight)
				if key != "" {
					shared[key] = limits{sl.bucket, sl.sem}
				}
			}
		} else if cfg.Disabled == "" {
			sl.cfg.Disabled = tool.DisabledByOperator
		}
		svc.slots = append(svc.slots, sl)
	}
	sort.SliceStable(svc.slots, func(i, j int) bool { return svc.slots[i].cfg.ID < svc.slots[j].cfg.ID })
	svc.byPref = append([]*slot(nil), svc.slots...)
	sort.SliceStable(svc.byPref, func(i, j int) bool {
		a, b := svc.byPref[i].cfg, svc.byPref[j].cfg
		if a.Preference != b.Preference {
			return a.Preference < b.Preference
		}
		return a.ID < b.ID
	})
	return svc
}

// Categories lists, in schema order, the categories an active engine serves.
func (s *Service) Categories() []tool.Category {
	cfgs := make([]EngineConfig, len(s.slots))
	for i, sl := range s.slots {
		cfgs[i] = sl.cfg
	}
	return ServedCategories(cfgs)
}

// ServedCategories lists, in schema order, the categories that the active
// engines among engines (those not Disabled) serve: what web_search offers
// for a configuration, known before any engine is built.
func ServedCategories(engines []EngineConfig) []tool.Category {
	served := map[tool.Category]bool{}
	for _, e := range engines {
		if e.Disabled == "" {
			for _, c := range e.Categories {
				served[c] = true
			}
		}
	}
	var out []tool.Category
	for _, c := range tool.Categories() {
		if served[c] {
			out = append(out, c)
		}
	}
	return out
}

// Status answers engine_status from memory (REQ-STATUS-001): identifier
// order, state, median latency, and a reason only for disabled engines.
func (s *Service) Status(ctx context.Context) *tool.StatusResponse {
	out := &tool.StatusResponse{Outcome: tool.OutcomeOK, Notices: []tool.Notice{}, Engines: []tool.EngineStatus{}}
	for _, sl := range s.slots {
		st := tool.EngineStatus{ID: sl.cfg.ID}
		if sl.eng == nil {
			st.State, st.Reason = tool.StateDisabled, sl.cfg.Disabled
		} else {
			st.State, st.LatencyMs = sl.circ.snapshot()
		}
		out.Engines = append(out.Engines, st)
	}
	return out
}

// picked is an engine selected for one call.
type picked struct {
	sl    *slot
	probe bool
}

// engineEnd is how one engine ended in one call.
type engineEnd struct {
	results   []RawResult
	err       *EngineError
	skipped   tool.Reason // engine_skipped at fan-out (rate_limited)
	retry     time.Duration
	fromCache bool
}

// Search runs one search (external design §6, §7). It returns a response,
// or a *tool.Error, or — only when ctx was cancelled by the caller (not by
// the deadline) — (nil, nil): a cancelled call is not answered
// (REQ-MCP-007), so there is nothing to return.
func (s *Service) Search(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
	// The deadline is a duration on the context (real elapsed time); the
	// fan-out deadline the provider buckets compare against is the same
	// span read on the injected clock, so the two never mix frames.
	start := s.now()
	ctx, cancel := context.WithTimeout(ctx, s.set.Deadline)
	defer cancel()

	var notices []tool.Notice
	query := req.Query
	warned := false // a query the check warned about bypasses the cache

	// The privacy check comes before any engine request (REQ-PRIV-002).
	switch s.set.SecretDetection {
	case secrets.Refuse:
		if f := secrets.Scan(query); len(f) > 0 {
			return nil, tool.DeniedSecret(tool.ReasonSecretInQuery, f[0].Kind, f[0].Start)
		}
	case secrets.Mask:
		if masked, n := secrets.MaskText(query); n > 0 {
			query = masked
			notices = append(notices, tool.Notice{Code: tool.CodeCredentialMasked, Count: n})
		}
	case secrets.Warn:
		if f := secrets.Scan(query); len(f) > 0 {
			warned = true
			s.log.WarnContext(ctx, "secret_in_query", "kind", f[0].Kind, "count", len(f))
		}
	}
	if s.set.LogQueries {
		s.log.DebugContext(ctx, "query", "query", query)
	}

	// Engine selection (REQ-ENG-007, REQ-SEARCH-004, -005, REQ-ENG-010).
	var sel []picked
	queryChars := utf8.RuneCountInString(query)
	queryWords := len(strings.FieldsFunc(query, unicode.IsSpace))
	now := s.now()
	for _, sl := range s.byPref {
		if sl.eng == nil || !serves(sl.cfg.Categories, req.Category) {
			continue
		}
		if len(sel) >= s.set.EnginesPerRequest {
			break
		}
		p := sl.props
		skip := tool.Reason("")
		switch {
		case req.TimeRange != tool.TimeRangeNone && !p.TimeRanges:
			skip = tool.ReasonTimeRange
		case !honoursLanguage(p.Languages, req.Language):
			skip = tool.ReasonLanguage
		case p.MaxQueryChars > 0 && queryChars > p.MaxQueryChars, p.MaxQueryWords > 0 && queryWords > p.MaxQueryWords:
			skip = tool.ReasonQueryTooLong
		}
		if skip == "" {
			ok, probe := sl.circ.admit(now)
			if !ok {
				skip = tool.ReasonCooldown
			} else {
				if probe {
					s.log.InfoContext(ctx, "circuit_half_open", "engine", sl.cfg.ID)
				}
				sel = append(sel, picked{sl: sl, probe: probe})
				continue
			}
		}
		notices = append(notices, tool.Notice{Code: tool.CodeEngineSkipped, Engine: sl.cfg.ID, Reason: skip})
	}
	if len(sel) == 0 {
		return nil, tool.NoEngine()
	}

	ends := s.fanOut(ctx, sel, req, query, !warned, start, s.set.Deadline-s.set.Reserve)
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, nil // cancelled: nothing is answered
	}
	return s.respond(ctx, sel, ends, req, notices)
}

// respond turns the engines' ends into one answer (external design §7):
// normalisation, deduplication, rank fusion, the content boundary and the
// cut, all in selection order so that arrival order never matters.
func (s *Service) respond(ctx context.Context, sel []picked, ends []engineEnd, req tool.SearchRequest, notices []tool.Notice) (*tool.SearchResponse, *tool.Error) {

	// Outcomes per engine, in selection order (never arrival order).
	answers := make([][]observation, len(sel))
	dropped := map[tool.Reason]int{}
	answered, failed, timeouts := 0, 0, 0
	var minRetry time.Duration
	for i, p := range sel {
		e := ends[i]
		id := p.sl.cfg.ID
		switch {
		case e.skipped != "":
			notices = append(notices, tool.Notice{Code: tool.CodeEngineSkipped, Engine: id, Reason: e.skipped})
			if e.retry > 0 && (minRetry == 0 || e.retry < minRetry) {
				minRetry = e.retry
			}
		case e.err != nil:
			failed++
			if e.err.Class == tool.ReasonTimeout {
				timeouts++
			}
			if e.err.RetryAfter > 0 && (minRetry == 0 || e.err.RetryAfter < minRetry) {
				minRetry = e.err.RetryAfter
			}
			notices = append(notices, tool.Notice{Code: tool.CodeEngineUnavailable, Engine: id, Reason: e.err.Class})
		default:
			answered++
			if e.fromCache {
				notices = append(notices, tool.Notice{Code: tool.CodeFromCache, Engine: id})
			}
			rs := e.results
			if len(rs) > s.set.ResultsPerEngine {
				rs = rs[:s.set.ResultsPerEngine]
			}
			for rank, r := range rs {
				n, why := normalizeURL(r.URL)
				if why != "" {
					dropped[why]++
					continue
				}
				answers[i] = append(answers[i], observation{engine: i, rank: rank + 1, norm: n, raw: r})
			}
		}
	}
	if answered == 0 {
		var err *tool.Error
		switch {
		case failed == 0:
			err = tool.EnginesRateLimited(roundUpMs(minRetry))
		case timeouts == failed:
			err = tool.SearchDeadline()
		default:
			err = tool.AllFailed()
			if minRetry > 0 {
				ms := roundUpMs(minRetry)
				err.Detail.RetryAfterMs = &ms
			}
		}
		return nil, err
	}

	// Merge, rank, clean, cut (REQ-RANK-004..007, REQ-CTX-004).
	ranked := mergeResults(answers)
	results := []tool.Result{}
	var engineOf []string // the first engine of each result, for the judge
	var counts boundaryCounts
	for _, m := range ranked {
		if len(results) >= req.MaxResults {
			break
		}
		r, c, flagged := cleanResult(m, &s.set)
		if flagged && s.set.DropFlagged {
			dropped[tool.ReasonInstructionLike]++
			continue
		}
		counts.add(c)
		if s.set.Attribution || attributionRequired(m, sel) {
			r.Engines = m.engineIDs(idsOf(sel))
		}
		results = append(results, r)
		if s.deps.Judge != nil {
			engineOf = append(engineOf, sel[m.best.engine].sl.cfg.ID)
		}
	}
	var judged []tool.Notice
	if s.deps.Judge != nil && len(results) > 0 {
		// No backfill: a result a plugin blocks leaves its place empty.
		results, judged = s.judge(ctx, results, engineOf)
	}
	for _, why := range []tool.Reason{tool.ReasonInstructionLike, tool.ReasonURLTooLong, tool.ReasonURLInvalid} {
		if n := dropped[why]; n > 0 {
			notices = append(notices, tool.Notice{Code: tool.CodeResultsDropped, Reason: why, Count: n})
		}
	}
	for _, n := range []struct {
		code tool.Code
		n    int
	}{{tool.CodeTitleTruncated, counts.titlesCut}, {tool.CodeSnippetTruncated, counts.snippetsCut},
		{tool.CodeCharactersRemoved, counts.charsRemoved}, {tool.CodeInstructionLikeContent, counts.flagged}} {
		if n.n > 0 {
			notices = append(notices, tool.Notice{Code: n.code, Count: n.n})
		}
	}
	notices = append(notices, judged...)
	if s.deps.Returned != nil {
		for _, r := range results {
			s.deps.Returned(r.URL)
		}
	}
	out := &tool.SearchResponse{Notices: notices, Results: results}
	if out.Notices == nil {
		out.Notices = []tool.Notice{}
	}
	switch {
	case len(results) == 0:
		out.Outcome = tool.OutcomeEmpty
	case failed > 0:
		out.Outcome = tool.OutcomePartial
	default:
		out.Outcome = tool.OutcomeOK
	}
	return out, nil
}

func roundUpMs(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}

func serves(cats []tool.Category, c tool.Category) bool {
	for _, x := range cats {
		if x == c {
			return true
		}
	}
	return false
}

// honoursLanguage: nil means every language; otherwise the primary subtag
// must be listed.
func honoursLanguage(langs []string, lang string) bool {
	if langs == nil || lang == "" {
		return true
	}
	primary := primarySubtag(lang)
	for _, l := range langs {
		if l == primary || l == lang {
			return true
		}
	}
	return false
}

func idsOf(sel []picked) []string {
	ids := make([]string, len(sel))
	for i, p := range sel {
		ids[i] = p.sl.cfg.ID
	}
	return ids
}

func attributionRequired(m *merged, sel []picked) bool {
	for _, o := range m.obs {
		if sel[o.engine].sl.props.AttributionRequired {
			return true
		}
	}
	return false
}

// fanOut asks the selected engines concurrently (REQ-AGG-001) and collects
// them until all have ended or the fan-out deadline passes (REQ-AGG-003,
// REQ-AGG-009); what is still running then is aborted (REQ-AGG-006).
func (s *Service) fanOut(ctx context.Context, sel []picked, req tool.SearchRequest, query string, cacheable bool, start time.Time, fanout time.Duration) []engineEnd {
	fctx, cancel := context.WithTimeout(ctx, fanout)
	defer cancel()
	fanoutDeadline := start.Add(fanout) // on the injected clock
	type done struct {
		i   int
		end engineEnd
	}
	ch := make(chan done, len(sel))
	phases := make([]atomic.Int32, len(sel))
	for i, p := range sel {
		go func() {
			ch <- done{i, s.ask(fctx, ctx, p, req, query, cacheable, fanoutDeadline, &phases[i])}
		}()
	}
	ends := make([]engineEnd, len(sel))
	got := make([]bool, len(sel))
	for n := 0; n < len(sel); n++ {
		select {
		case d := <-ch:
			ends[d.i], got[d.i] = d.end, true
		case <-fctx.Done():
			cancel()
			// Whatever has not ended cannot contribute: it timed out. The
			// goroutines see the cancellation and end; their sends go to
			// the buffered channel.
			for i := range ends {
				if got[i] {
					continue
				}
				switch phases[i].Load() {
				case phaseWaiting:
					// Still waiting for our own limits: never asked.
					ends[i] = engineEnd{skipped: tool.ReasonRateLimited}
				case phaseShortened:
					// Asked with the time our limiter left: the rate, not
					// the provider, is why it has not answered.
					ends[i] = engineEnd{err: failure(tool.ReasonRateLimited)}
				default:
					ends[i] = engineEnd{err: failure(tool.ReasonTimeout)}
				}
			}
			return ends
		}
	}
	return ends
}

// The phases of one engine request, for the fan-out to tell at its
// deadline whether an engine that has not ended was held by our own limits.
const (
	phaseWaiting   int32 = iota + 1 // waiting for the limiter or a concurrency cap
	phaseShortened                  // asked with less than the engine timeout left
	phaseAsked                      // asked with its whole engine timeout
)

// ownWaitSlack is how much of a request's time our own limits may take
// before a timeout is no longer the provider's alone.
const ownWaitSlack = 10 * time.Millisecond

// ask runs one engine request under the provider's limits, the engine
// timeout and the circuit. ctx is the fan-out context; callCtx tells a
// caller's cancellation from the deadline.
func (s *Service) ask(ctx, callCtx context.Context, p picked, req tool.SearchRequest, query string, cacheable bool, fanoutDeadline time.Time, phase *atomic.Int32) (end engineEnd) {
	phase.Store(phaseWaiting)
	asked := s.now()
	sl := p.sl
	id := sl.cfg.ID
	ereq := EngineRequest{
		Query: query, Category: req.Category, MaxResults: s.set.ResultsPerEngine, Language: req.Language,
		Region: s.set.Region, SafeSearch: s.set.SafeSearch, TimeRange: req.TimeRange,
	}
	// The result cache (M5): only engines that allow storage, never for the
	// probe of a circuit, never for a query the secret check warned about.
	key := ""
	if s.cache != nil && sl.props.Cacheable && !p.probe && cacheable {
		caller := "local"
		if c, ok := tool.CallFrom(ctx); ok && c.Caller != "" {
			caller = c.Caller
		}
		key = cacheKey(caller, id, ereq)
		if rs, ok := s.cache.get(key); ok {
			tool.LogEvent(ctx, s.log, slog.LevelDebug, "cache_lookup", slog.String("engine", id), slog.String("result", "hit"))
			return engineEnd{results: rs, fromCache: true}
		}
		tool.LogEvent(ctx, s.log, slog.LevelDebug, "cache_lookup", slog.String("engine", id), slog.String("result", "miss"))
	}
	responded, cancelled := false, false
	var latency time.Duration
	started := false
	defer func() {
		if r := recover(); r != nil {
			// A driver's panic ends its own request, never the process or
			// another engine (REQ-AGG-007).
			s.log.ErrorContext(ctx, "engine_panic", "engine", id)
			end = engineEnd{err: failure(tool.ReasonRequestFailure)}
			started = true
		}
		if !started {
			if p.probe {
				// The probe never went out: open again with the same cooldown.
				sl.circ.done(s.policy, s.now(), true, "", 0, 0, false, true)
			}
			return
		}
		class := tool.Reason("")
		var retry time.Duration
		if end.err != nil {
			class, retry = end.err.Class, end.err.RetryAfter
		}
		tr, cd := sl.circ.done(s.policy, s.now(), p.probe, class, retry, latency, responded, cancelled)
		switch tr {
		case opened:
			s.log.InfoContext(ctx, "circuit_opened", "engine", id, "cooldown_ms", cd.Milliseconds())
		case closed:
			s.log.InfoContext(ctx, "circuit_closed", "engine", id)
		}
		if class == tool.ReasonRateLimited && retry > 0 {
			sl.bucket.block(s.now().Add(retry))
		}
		if end.err != nil && !cancelled {
			s.log.InfoContext(ctx, "engine_failed", "engine", id, "class", string(class), "latency_ms", latency.Milliseconds())
		}
	}()

	if pc, ok := sl.eng.(pacer); ok {
		if t := pc.readyAt(); t.After(s.now()) {
			sl.bucket.block(t)
		}
	}
	wait, ok := sl.bucket.reserve(fanoutDeadline)
	if !ok {
		return engineEnd{skipped: tool.ReasonRateLimited}
	}
	if !sleep(ctx, wait) {
		return engineEnd{skipped: tool.ReasonRateLimited}
	}
	if !sl.sem.Acquire(ctx) {
		return engineEnd{skipped: tool.ReasonRateLimited}
	}
	defer sl.sem.Release()
	if !s.outbound.Acquire(ctx) {
		return engineEnd{skipped: tool.ReasonRateLimited}
	}
	defer s.outbound.Release()

	rctx, rcancel := context.WithTimeout(ctx, s.set.EngineTimeout)
	defer rcancel()
	started = true
	t0 := s.now()
	// Our own waits (the provider's limiter, the concurrency caps) may have
	// left less than the engine timeout before the fan-out deadline.
	shortened := fanoutDeadline.Sub(t0)+ownWaitSlack < min(s.set.EngineTimeout, fanoutDeadline.Sub(asked))
	if shortened {
		phase.Store(phaseShortened)
	} else {
		phase.Store(phaseAsked)
	}
	results, err := sl.eng.Search(rctx, ereq)
	latency = s.now().Sub(t0)
	if callCtx.Err() != nil && !errors.Is(callCtx.Err(), context.DeadlineExceeded) {
		cancelled = true
		return engineEnd{err: failure(tool.ReasonTimeout)}
	}
	if err != nil && shortened && ctx.Err() != nil {
		// The fan-out deadline, not the engine's own timeout, cut the
		// request short: the time went to waiting for our own limiter, so
		// it is not the provider's failure and never counts toward its
		// circuit (cancelled below). The caller learns the rate was the
		// cause.
		cancelled = true
		s.log.InfoContext(ctx, "engine_skipped", "engine", id, "reason", string(tool.ReasonRateLimited))
		return engineEnd{err: failure(tool.ReasonRateLimited)}
	}
	if err != nil {
		var ee *EngineError
		if errors.As(err, &ee) && ee.NotSent {
			// Our own wait, not the provider's failure: a skip, outside
			// the circuit (a probe that never went out reopens it).
			started = false
			return engineEnd{skipped: tool.ReasonRateLimited, retry: ee.RetryAfter}
		}
		switch {
		case rctx.Err() != nil:
			ee = failure(tool.ReasonTimeout)
		case errors.As(err, &ee):
		default:
			ee = failure(tool.ReasonRequestFailure)
		}
		responded = ee.Class != tool.ReasonTimeout
		return engineEnd{err: ee}
	}
	responded = true
	if key != "" {
		s.cache.put(key, results)
	}
	tool.LogEvent(ctx, s.log, slog.LevelDebug, "engine_answered",
		slog.String("engine", id), slog.Int("count", len(results)), slog.Int64("latency_ms", latency.Milliseconds()))
	return engineEnd{results: results}
}

// judge has Deps.Judge look at the title and the snippet of each result
// about to be returned (the RSP hook on_retrieve), after cleaning and
// bounding. A result whose title or snippet is blocked is dropped, with no
// backfill; a redacted field is rewritten, cleaned and bounded again (a
// plugin's replacement is external text too); a flag lets the result pass.
// The notices say what happened without the matched text: results_dropped
// (plugin_blocked), content_redacted, plugin_flagged, plugin_failed.
func (s *Service) judge(ctx context.Context, results []tool.Result, engineOf []string) ([]tool.Result, []tool.Notice) {
	items := make([]tool.JudgeItem, 0, 2*len(results))
	for i, r := range results {
		meta := func(field string) map[string]any {
			return map[string]any{"tool": tool.ToolWebSearch, "field": field, "url": r.URL, "engine": engineOf[i], "rank": i + 1}
		}
		items = append(items,
			tool.JudgeItem{Content: r.Title, Metadata: meta("title")},
			tool.JudgeItem{Content: r.Snippet, Metadata: meta("snippet")})
	}
	verdicts := s.deps.Judge.Judge(ctx, tool.HookOnRetrieve, tool.ToolWebSearch, items)
	var sum tool.JudgeSummary
	kept := results[:0:0]
	for i, r := range results {
		if 2*i+1 >= len(verdicts) {
			break // a judge that answered short: what it did not judge is not returned
		}
		title, snippet := verdicts[2*i], verdicts[2*i+1]
		sum.Add(title)
		sum.Add(snippet)
		if title.Blocked || snippet.Blocked {
			sum.Dropped++
			continue
		}
		if title.Redactions > 0 {
			r.Title = boundary.CleanDecodedText(title.Content, s.set.TitleMaxChars).Text
		}
		if snippet.Redactions > 0 {
			r.Snippet = boundary.CleanDecodedText(snippet.Content, s.set.SnippetMaxChars).Text
		}
		kept = append(kept, r)
	}
	if short := len(results) - len(kept) - sum.Dropped; short > 0 {
		sum.Dropped += short
	}
	var notices []tool.Notice
	if sum.Dropped > 0 {
		notices = append(notices, tool.Notice{Code: tool.CodeResultsDropped, Reason: tool.ReasonPluginBlocked, Count: sum.Dropped})
	}
	return kept, append(notices, sum.Notices()...)
}
