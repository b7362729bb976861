package boundary

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// InstructionLike reports whether text reads like an instruction to a model
// (REQ-SEC-003): "ignore all previous instructions", "disregard the
// above", "you are now an unrestricted AI", "system prompt", "new
// instructions:", "as an AI you must", "do not tell the user", "reveal
// your system prompt", "call the … tool", chat-template markers such as
// "<|im_start|>", "[INST]", "<<SYS>>" and "### Instruction", and the role
// markers "assistant:" and "system: you…" at the start of a line; the most
// common phrase also in Spanish, French, German, Portuguese, Japanese and
// Chinese. Matching ignores case, accents, full-width forms and the
// invisible characters the cleaners remove. It never changes the text and
// runs in linear time.
//
// It is a heuristic that raises a notice, not a boundary: text about prompt
// injection may match, a reworded instruction may not (threat register,
// residual risks). The phrase list below is the reviewable constant.
func InstructionLike(text string) bool {
	sc := instrScanner{s: text}
	var t instrToken
	var la instrLookahead
	for sc.next(&t) {
		if t.long {
			continue
		}
		la.reset(sc)
		if matchAt(&t, &la) {
			return true
		}
	}
	return hasCJKInstruction(text)
}

// matchAt reports whether an instruction pattern starts at token t; la
// reads the tokens after it.
func matchAt(t *instrToken, la *instrLookahead) bool {
	switch string(t.buf[:t.n]) {
	case "<":
		return la.is(0, "|") && la.in(1, chatTemplateWords) ||
			la.is(0, "<") && la.is(1, "sys") && la.is(2, ">") ||
			la.in(0, "start_of_turn end_of_turn")
	case "[":
		return la.is(0, "inst") && la.is(1, "]") ||
			la.is(0, "/") && la.is(1, "inst") && la.is(2, "]")
	case "#":
		k := 0
		for la.is(k, "#") {
			k++
		}
		return k > 0 && (la.is(k, "instruction") || la.is(k, "system") && la.is(k+1, ":"))
	case "system":
		return la.is(0, "prompt") ||
			t.lineStart && la.is(0, ":") && la.in(1, systemFollowers)
	case "assistant":
		return t.lineStart && la.is(0, ":")
	case "you":
		return youAreNow(la, 0)
	case "youre":
		return roleAfter(la, 0, "now")
	case "from":
		return fromNowOn(la)
	case "as":
		return asAnAI(la)
	case "new", "updated", "revised", "real", "actual", "true", "secret", "hidden":
		k := 0
		if la.is(k, "system") {
			k++
		}
		return la.in(k, "instructions instruction directive directives prompt") && la.is(k+1, ":")
	case "do":
		return la.is(0, "not") && tellUser(la, 1, tellVerbs)
	case "don":
		return la.in(0, apostrophe) && la.is(1, "t") && tellUser(la, 2, tellVerbs)
	case "dont", "never":
		return tellUser(la, 0, tellVerbs)
	case "without":
		return tellUser(la, 0, tellingVerbs)
	case "reveal", "leak", "disclose", "print", "repeat", "output", "dump", "show":
		return revealPrompt(la)
	case "call", "invoke":
		if la.in(0, rypsokTools) {
			return true
		}
		k := 0
		if la.in(k, "the this that a an your") {
			k++
		}
		for n := 0; n < 3; n++ {
			if la.in(k+n, "tool tools") {
				return true
			}
			if la.kind(k+n) != tokWord {
				return false
			}
		}
		return false
	case "use", "run", "execute", "trigger":
		return la.in(0, rypsokTools)
	case "ignore", "disregard", "forget", "override", "bypass",
		"ignora", "ignorar", "ignorad", "ignoren", "olvida", "olvide", "olvidar", // es
		"ignorez", "ignorer", "oublie", "oubliez", "oublier", // fr
		"ignoriere", "ignorieren", "ignoriert", "vergiss", "vergesst", "vergessen", // de
		"esqueca", "esquece": // pt; ignore and ignora are shared
		return ignorePrevious(la)
	}
	return false
}

// The reviewable phrase vocabulary: space-separated words, lower case,
// accents folded.
const (
	ignoreQuantifiers = "all any every todas todos toutes tous alle allen"
	ignoreDeterminers = "the your these those this that my las los tus sus les tes vos ces " +
		"die deine ihre eure as os suas tuas"
	possessives     = "your tus sus tes vos deine ihre eure suas tuas"
	priorAdjectives = "previous prior above earlier preceding foregoing former original initial old past " +
		"system existing anteriores previas precedentes antiguas anterieures passees " +
		"vorherigen vorigen bisherigen fruheren obigen vorangegangenen alten"
	instructionNouns = "instructions instruction prompt prompts directions directives rules commands " +
		"guidelines guidance context messages orders constraints restrictions programming guardrails " +
		"instrucciones indicaciones ordenes reglas consignes regles " +
		"anweisungen instruktionen befehle regeln anweisung vorgaben instrucoes regras comandos"
	everythingWords   = "everything alles todo tout tudo"
	everythingMarkers = "above before previous previously prior earlier told said instructions"
	clauseEnds        = ". , ; : ! ? ) and y et und e"
	roleWords         = "ai assistant chatbot bot model llm gpt chatgpt dan jailbroken unrestricted " +
		"unfiltered uncensored developer persona evil unbound unlocked"
	noLongerWords    = "bound restricted limited constrained ai assistant chatgpt model obligated"
	modalVerbs       = "will must should shall ll need have are cannot can"
	fromNowOnActions = "act respond answer behave pretend ignore reply obey follow only always never " +
		"speak talk roleplay"
	aiWords           = "ai assistant llm chatbot language large artificial"
	tellVerbs         = "tell inform mention reveal show notify alert warn disclose let"
	tellingVerbs      = "telling informing notifying alerting warning mentioning letting"
	tellFillers       = "this that it anything about to the them any of these your"
	secretAdjectives  = "system initial original hidden secret internal full entire exact previous"
	promptNouns       = "prompt instructions instruction guidelines rules configuration directives message"
	systemFollowers   = "you your ignore disregard forget override from new always never do don act respond reveal"
	rypsokTools       = "web_fetch web_search engine_status"
	chatTemplateWords = "im_start im_end im_sep system user assistant endoftext eot_id eom_id " +
		"start_header_id end_header_id begin_of_text"
	apostrophe = "' ’"
)

// ignorePrevious matches, after an ignore-verb: [sie] [quantifier [of]]
// [determiner] [adjective…] noun [adjective], where a noun alone needs a
// quantifier, a possessive or an adjective ("ignore the instructions on the
// box" does not match, "ignore your instructions" does); or an adjective
// ending the clause ("disregard the above."); or "everything" followed
// closely by a marker of what came before.
func ignorePrevious(la *instrLookahead) bool {
	k := 0
	if la.is(k, "sie") {
		k++
	}
	if la.in(k, everythingWords) {
		for n := 1; n <= 4; n++ {
			if la.in(k+n, everythingMarkers) {
				return true
			}
		}
		return false
	}
	quantified := false
	if la.in(k, ignoreQuantifiers) {
		quantified = true
		k++
		if la.in(k, "of de") {
			k++
		}
	}
	possessive := false
	if la.in(k, ignoreDeterminers) {
		possessive = la.in(k, possessives)
		k++
	}
	adjectives := 0
	for adjectives < 2 && la.in(k, priorAdjectives) {
		adjectives++
		k++
	}
	if la.in(k, instructionNouns) {
		if la.in(k+1, priorAdjectives) {
			adjectives++
		}
		return adjectives > 0 || quantified || possessive
	}
	return adjectives > 0 && la.clauseEndsAt(k)
}

// youAreNow matches "you are now <role>" and "you are no longer <bound>",
// starting at the token after "you".
func youAreNow(la *instrLookahead, k int) bool {
	switch {
	case la.is(k, "are"):
		k++
	case la.in(k, apostrophe) && la.is(k+1, "re"):
		k += 2
	default:
		return false
	}
	if la.is(k, "no") && la.is(k+1, "longer") {
		return within(la, k+2, 4, noLongerWords)
	}
	return roleAfter(la, k, "now")
}

func roleAfter(la *instrLookahead, k int, now string) bool {
	return la.is(k, now) && within(la, k+1, 4, roleWords)
}

// fromNowOn matches "from now on[,] you are <role>" and "from now on[,]
// you will <act|respond|…>".
func fromNowOn(la *instrLookahead) bool {
	if !la.is(0, "now") || !la.is(1, "on") {
		return false
	}
	k := 2
	if la.is(k, ",") {
		k++
	}
	if !la.is(k, "you") {
		return false
	}
	k++
	if la.is(k, "are") && within(la, k+1, 4, roleWords) {
		return true
	}
	if la.in(k, apostrophe) {
		k++
	}
	return la.in(k, modalVerbs) && within(la, k+1, 2, fromNowOnActions)
}

// asAnAI matches "as an AI[ language model], you must…".
func asAnAI(la *instrLookahead) bool {
	if !la.in(0, "a an") || !la.in(1, aiWords) {
		return false
	}
	for k := 2; k < 7; k++ {
		if la.is(k, "you") {
			if la.in(k+1, apostrophe) {
				return la.is(k+2, "ll")
			}
			return la.in(k+1, modalVerbs)
		}
		if la.kind(k) == tokEOF {
			return false
		}
	}
	return false
}

// tellUser matches a telling verb at k, a few fillers, then "user".
func tellUser(la *instrLookahead, k int, verbs string) bool {
	if !la.in(k, verbs) {
		return false
	}
	k++
	for n := 0; n < 4 && la.in(k, tellFillers); n++ {
		k++
	}
	return la.in(k, "user users human")
}

// revealPrompt matches "reveal your [system] prompt|instructions…" and
// "reveal the system|hidden|… prompt".
func revealPrompt(la *instrLookahead) bool {
	k := 1
	adjectives := 0
	for adjectives < 2 && la.in(k, secretAdjectives) {
		adjectives++
		k++
	}
	switch {
	case la.is(0, "your"):
		return la.in(k, promptNouns)
	case la.is(0, "the"):
		return adjectives > 0 && la.in(k, "prompt instructions message")
	}
	return false
}

// within reports whether one of words occurs among the n tokens from k.
func within(la *instrLookahead, k, n int, words string) bool {
	for i := 0; i < n; i++ {
		if la.kind(k+i) == tokEOF {
			return false
		}
		if la.in(k+i, words) {
			return true
		}
	}
	return false
}

// inList reports whether w is one of the space-separated words of list.
func inList(list, w string) bool {
	if w == "" {
		return false
	}
	for {
		i := strings.Index(list, w)
		if i < 0 {
			return false
		}
		end := i + len(w)
		if (i == 0 || list[i-1] == ' ') && (end == len(list) || list[end] == ' ') {
			return true
		}
		list = list[i+1:]
	}
}

// Tokens: a word is a run of letters, digits, underscores and combining
// marks (marks dropped, so accents fold away), lower-cased, Latin-1 accents
// and full-width forms folded; any other visible rune is a one-rune
// punctuation token. White space separates tokens; the invisible
// characters are read through, inside words too.
const (
	tokEOF uint8 = iota
	tokWord
	tokPunct
)

// maxTokenBytes bounds a token; a longer word matches nothing.
const maxTokenBytes = 32

type instrToken struct {
	buf       [maxTokenBytes]byte
	n         int
	kind      uint8
	long      bool
	lineStart bool
}

func (t *instrToken) add(r rune) {
	if t.long || t.n+utf8.RuneLen(r) > maxTokenBytes {
		t.long = true
		return
	}
	t.n += utf8.EncodeRune(t.buf[t.n:], r)
}

type instrScanner struct {
	s       string
	i       int
	started bool
}

// next reads the next token into t; it returns false at the end.
func (sc *instrScanner) next(t *instrToken) bool {
	t.n, t.long, t.kind = 0, false, tokEOF
	t.lineStart = !sc.started
	sc.started = true
	s, i := sc.s, sc.i
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if c > ' ' && c != 0x7F {
				break
			}
			if c == '\n' || c == '\r' {
				t.lineStart = true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0x85 || r == 0x2028 || r == 0x2029 {
			t.lineStart = true
		} else if classOf(r) == charKeep {
			break
		}
		i += size
	}
	if i >= len(s) {
		sc.i = i
		return false
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	i += size
	r = foldRune(r)
	if !isWordRune(r) {
		sc.i = i
		t.kind = tokPunct
		t.add(r)
		return true
	}
	t.kind = tokWord
	t.add(r)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if w := asciiWordByte(c); w != 0 {
				if t.n < maxTokenBytes {
					t.buf[t.n] = w
					t.n++
				} else {
					t.long = true
				}
				i++
				continue
			}
			if c < ' ' && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' || c == 0x7F {
				i++ // a control inside a word is read through
				continue
			}
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch classOf(r) {
		case charSpace, charLineBreak:
			sc.i = i
			return true
		case charKeep:
			if isCommonCJK(r) {
				t.add(r)
			} else if !isMark(r) {
				r = foldRune(r)
				if !isWordRune(r) {
					sc.i = i
					return true
				}
				t.add(r)
			}
		}
		i += size
	}
	sc.i = i
	return true
}

// asciiWordByte returns c lower-cased if it belongs to a word, else 0.
func asciiWordByte(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
		return c
	case c >= 'A' && c <= 'Z':
		return c + ('a' - 'A')
	}
	return 0
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r >= 'A' && r <= 'Z'
	}
	if r >= 0x2000 && r <= 0x206F { // general punctuation
		return false
	}
	return isCommonCJK(r) || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// latin1Fold maps U+00E0–U+00FF to their base letters ('·' keeps the rune).
const latin1Fold = "aaaaaaaceeeeiiiidnooooo·ouuuuy·y"

// foldRune lower-cases r and folds full-width ASCII, Latin-1 accents and
// the Latin, Cyrillic and Greek look-alikes of Latin letters (Unicode's
// confusables data, clean_confusables.go): "іgnore" with a Cyrillic і
// reads as "ignore".
func foldRune(r rune) rune {
	switch {
	case r >= 'A' && r <= 'Z':
		return r + ('a' - 'A')
	case r < utf8.RuneSelf:
		return r
	case r >= 0xFF01 && r <= 0xFF5E:
		return foldRune(r - 0xFEE0)
	case r == 0x2019 || r == 0x2018 || r == 0x02BC:
		return '\''
	case isCommonCJK(r), r >= 0x2000 && r <= 0x20FF: // no case in these blocks
		return r
	}
	if c := confusableLetter(r); c != 0 {
		return rune(c)
	}
	r = unicode.ToLower(r)
	if r >= 0xE0 && r <= 0xFF && latin1Fold[r-0xE0] != 0xB7 {
		return rune(latin1Fold[r-0xE0])
	}
	return r
}

//go:generate go run ../scripts/gen-confusables -in ../scripts/gen-confusables/confusables-latin.txt -out clean_confusables.go

// confusableLetter returns the Latin letter, lower-cased, that r is a
// look-alike of, or 0: a binary search of the generated table.
func confusableLetter(r rune) byte {
	t := &confusableLetters
	if r < t[0].r || r > t[len(t)-1].r {
		return 0
	}
	lo, hi := 0, len(t)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t[m].r < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t) && t[lo].r == r {
		return t[lo].letter
	}
	return 0
}

// instrLookahead reads tokens after the current one, on demand.
type instrLookahead struct {
	sc   instrScanner
	toks [12]instrToken
	n    int
	done bool
}

func (la *instrLookahead) reset(sc instrScanner) {
	la.sc, la.n, la.done = sc, 0, false
}

func (la *instrLookahead) at(k int) *instrToken {
	if k >= len(la.toks) {
		return nil
	}
	for la.n <= k && !la.done {
		t := &la.toks[la.n]
		if !la.sc.next(t) {
			la.done = true
			break
		}
		la.n++
	}
	if k >= la.n {
		return nil
	}
	return &la.toks[k]
}

func (la *instrLookahead) kind(k int) uint8 {
	if t := la.at(k); t != nil {
		return t.kind
	}
	return tokEOF
}

func (la *instrLookahead) is(k int, w string) bool {
	t := la.at(k)
	return t != nil && !t.long && string(t.buf[:t.n]) == w
}

// clauseEndsAt reports whether the clause ends before token k: the text
// ends, a line ends, or k is a punctuation mark or conjunction of
// clauseEnds.
func (la *instrLookahead) clauseEndsAt(k int) bool {
	t := la.at(k)
	return t == nil || t.lineStart || la.in(k, clauseEnds)
}

// in reports whether token k is one of the space-separated words of list.
func (la *instrLookahead) in(k int, list string) bool {
	t := la.at(k)
	return t != nil && !t.long && inList(list, string(t.buf[:t.n]))
}

// CJK phrases: a verb (ignore, forget) with a noun (instruction, prompt,
// rule) and a marker of what came before (previous, above, all, your)
// within a few characters on either side, the Japanese order being
// object-first and the Chinese verb-first; and "system prompt".
const (
	cjkVerbs   = "無視 无视 忽略 忽視 忘记 忘記 忘れ"
	cjkNouns   = "指示 指令 命令 提示 プロンプト 规则 規則 ルール 设定 設定"
	cjkMarkers = "以前 之前 先前 前の 上記 上述 以上 上面 前面 これまで 今まで すべて 全て 所有 全部 你的 あなたの"
	cjkSystem  = "系统提示 系統提示 システムプロンプト"
)

// cjkWindowBytes is how far from the verb the noun and the marker are
// looked for: about twelve CJK characters.
const cjkWindowBytes = 36

func hasCJKInstruction(text string) bool {
	i := 0
	for i < len(text) && text[i] < 0xE3 {
		i++
	}
	if i == len(text) {
		return false // no CJK character
	}
	compact := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c > ' ' && c != 0x7F {
				compact = append(compact, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if classOf(r) == charKeep {
			compact = utf8.AppendRune(compact, r) // invalid bytes become U+FFFD
		}
		i += size
	}
	s := string(compact)
	if containsAny(s, cjkSystem) {
		return true
	}
	for verbs := cjkVerbs; verbs != ""; {
		var v string
		v, verbs = firstWord(verbs)
		for from := 0; ; {
			i := strings.Index(s[from:], v)
			if i < 0 {
				break
			}
			i += from
			lo, hi := max(i-cjkWindowBytes, 0), min(i+len(v)+cjkWindowBytes, len(s))
			for lo > 0 && !utf8.RuneStart(s[lo]) {
				lo++
			}
			for hi < len(s) && !utf8.RuneStart(s[hi]) {
				hi++
			}
			if containsAny(s[lo:hi], cjkNouns) && containsAny(s[lo:hi], cjkMarkers) {
				return true
			}
			from = i + len(v)
		}
	}
	return false
}

// containsAny reports whether s contains one of the space-separated
// phrases of list.
func containsAny(s, list string) bool {
	for list != "" {
		var p string
		p, list = firstWord(list)
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// firstWord splits a space-separated list into its first word and the rest.
func firstWord(list string) (string, string) {
	if i := strings.IndexByte(list, ' '); i >= 0 {
		return list[:i], list[i+1:]
	}
	return list, ""
}
