package htmlx

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// Hint bits read from class, id, itemprop and role values. They are
// evidence, not verdicts: the extractor weighs them against the text.
const (
	hintPositive    uint32 = 1 << iota // article, content, post, entry, story...
	hintArticleBody                    // article-body, post-content, entry-content, itemprop=articleBody...
	hintMain                           // role=main, main content
	hintComment                        // comments, replies, discussion
	hintSidebar                        // sidebar, rail, widget
	hintRelated                        // related, recommended, trending, more stories
	hintShare                          // share, social
	hintAd                             // ads, sponsors, promotions
	hintNav                            // navigation, menus, breadcrumbs, pagination
	hintFooter                         // footer
	hintHeader                         // header, masthead
	hintByline                         // byline, author, date, post meta
	hintCaption                        // captions and credits
	hintTags                           // tags, topics, categories
	hintSubscribe                      // newsletter, subscribe, cookie, consent, popup
	hintTitle                          // headline, title
	hintTeaser                         // cards, teasers, lists of stories
	hintLead                           // lede, standfirst, summary, dek
	hintNoise                          // print, skip links, toolbars, misc chrome
	hintEmbed                          // embedded posts and media: content, even when social
	hintConsent                        // cookie, consent, gdpr (with hintSubscribe)
	hintReview                         // reviews, feedback: never a thread's posts; "review" alone is a comment only off articles (markJunk)
	hintUserCard                       // a forum post author's card: rank, join date, post count (with hintNoise)
	hintButton                         // a link styled as a button: btn, button
	hintCTA                            // a call to action: cta (see proseInChrome, frameChrome)
	hintFilter                         // the filters of a listing: filters, facets
	hintRoleButton                     // role=button: a control, when it leads nowhere (prune)
	hintPager                          // pagination, pager (with hintNav): see markJunk
)

// hintsNegative are the bits that mark an element as boilerplate.
const hintsNegative = hintComment | hintSidebar | hintRelated | hintShare |
	hintAd | hintNav | hintFooter | hintSubscribe | hintNoise | hintCTA

// lowerInto writes the ASCII lower-case form of b into the scratch
// buffer and returns it.
func lowerInto(b []byte, scratch *[]byte) []byte {
	s := (*scratch)[:0]
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		s = append(s, c)
	}
	*scratch = s
	return s
}

// hint words matched as whole tokens (split on anything but letters and
// digits) of a lower-cased value.
func tokenHints(w []byte) uint32 {
	switch string(w) {
	case "article", "content", "post", "entry", "story", "body", "text",
		"blog", "prose", "markdown", "richtext", "main", "news":
		return hintPositive
	// "adv" is left out: page builders abbreviate "advanced" so
	// ("kt-adv-heading")
	case "ad", "ads", "advert", "adverts", "advertisement",
		"advertisements", "advertising", "sponsor", "sponsored", "promo",
		"promos", "promoted", "promotion", "dfp", "gpt", "adsense",
		"commercial", "affiliate", "native":
		return hintAd
	// "tabs" is left out: a tab widget holds content panels; its bar
	// of tabs is role=tablist, a link list, or too short to matter
	case "nav", "navbar", "navigation", "menu", "menus", "breadcrumb",
		"breadcrumbs", "toc", "submenu", "dropdown",
		"skip", "jump", "jumplinks":
		return hintNav
	case "pagination", "pager":
		return hintNav | hintPager
	case "share", "shares", "sharing", "social", "sharebar", "sharethis",
		"addthis", "socials", "follow":
		return hintShare
	// "testimonials" is left out: a service's quoted customers are
	// part of what the page says, not a discussion below it
	case "comment", "comments", "disqus", "respond", "replies", "reply",
		"discussion", "discuss", "conversation":
		return hintComment
	case "feedback", "reviews":
		// what customers say: comments, never the posts of a thread
		return hintComment | hintReview
	case "review":
		// readers' reviews on a shop, the editor's review in an
		// article: markJunk decides by the page's type
		return hintReview
	case "sidebar", "rail", "aside", "sidecol":
		return hintSidebar
	case "related", "recommended", "recommendations", "trending",
		"popular", "mostread", "mostpopular", "recirc", "recirculation",
		"outbrain", "taboola", "readmore", "readnext", "upnext",
		"morestories", "suggested", "similar", "partner", "partners":
		return hintRelated
	case "footer", "foot", "copyright", "colophon":
		return hintFooter
	case "header", "masthead", "topbar", "banner", "hero":
		return hintHeader
	case "byline", "bylines", "author", "authors", "dateline", "date",
		"time", "timestamp", "published", "publish", "posted", "meta",
		"postmeta", "entrymeta", "info", "credits", "contributor":
		return hintByline
	case "caption", "captions", "credit", "figcaption", "photocredit":
		return hintCaption
	case "tag", "tags", "taglist", "topics", "topic", "categories",
		"category", "keywords", "labels":
		return hintTags
	case "cookie", "cookies", "consent", "gdpr":
		return hintSubscribe | hintConsent
	case "newsletter", "subscribe", "subscription", "signup", "popup", "modal", "overlay",
		"paywall", "register", "login", "promobox", "donate":
		return hintSubscribe
	// "cta" names a call to action: on service pages a section of
	// the page builder that sells the service (see proseInChrome and
	// frameChrome), on articles the publisher's plug
	case "cta":
		return hintCTA
	case "headline", "title", "heading":
		return hintTitle
	case "btn", "button", "buttons":
		return hintButton
	case "filter", "filters", "facet", "facets", "refinement", "refinements":
		return hintFilter
	case "embed", "embedded", "oembed", "tweet", "instagram":
		return hintEmbed
	case "card", "cards", "teaser", "teasers", "tile", "tiles", "feed",
		"stream", "listing", "list", "grid", "carousel", "slider":
		return hintTeaser
	case "lede", "lead", "standfirst", "summary", "dek", "intro",
		"excerpt", "description", "deck", "subtitle", "subheadline":
		return hintLead
	// "sig" is left out: documentation generators name an API's
	// signature so ("sig sig-object py"), not a forum's signature.
	// A badge is the small label set on an item ("New", "Sale",
	// "Author", "Staff"): a decoration, not the item's text
	case "print", "toolbar", "noprint", "skiplink", "signature", "badge", "badges",
		"disclosure", "disclaimer":
		return hintNoise
	}
	return 0
}

// compoundForm is a compound class word, matched anywhere in a value
// whose separators are removed ("c-article__body" holds "articlebody").
type compoundForm struct {
	s    string
	bits uint32
}

// The compound forms by first letter (read-only tables).
var (
	formsA = []compoundForm{{"articlebody", hintArticleBody}, {"articletext", hintArticleBody}, {"articlecontent", hintArticleBody}, {"articlecopy", hintArticleBody}, {"alsoread", hintRelated}, {"authorinfo", hintNoise}, {"authorbio", hintNoise}, {"aboutauthor", hintNoise}, {"authorbox", hintNoise}, {"authorcard", hintNoise}, {"authorprofile", hintNoise}, {"abouttheauthor", hintNoise}}
	formsB = []compoundForm{{"bodytext", hintArticleBody}, {"bodycopy", hintArticleBody}, {"breadcrumb", hintNav}, {"byline", hintByline}}
	formsC = []compoundForm{{"comment", hintComment}, {"cookie", hintSubscribe | hintConsent}, {"caption", hintCaption}}
	formsD = []compoundForm{{"disqus", hintComment}, {"doubleclick", hintAd}, {"dateline", hintByline}}
	formsE = []compoundForm{{"entrycontent", hintArticleBody}, {"entrybody", hintArticleBody}, {"entrytext", hintArticleBody}}
	formsF = []compoundForm{{"footer", hintFooter}}
	formsH = []compoundForm{{"headline", hintTitle}}
	formsM = []compoundForm{{"maincontent", hintMain}, {"morestories", hintRelated}, {"mostread", hintRelated}, {"mostpopular", hintRelated}, {"masthead", hintHeader}}
	formsN = []compoundForm{{"navigation", hintNav}, {"navbar", hintNav}, {"newsletter", hintSubscribe}}
	formsO = []compoundForm{{"outbrain", hintRelated}}
	// a popover ("iPwaInstallPopover", "share-popover") floats over
	// the page: an install prompt, a menu, a tooltip, never its content
	formsP = []compoundForm{{"postcontent", hintArticleBody}, {"postbody", hintArticleBody}, {"posttext", hintArticleBody}, {"pagination", hintNav | hintPager}, {"paywall", hintSubscribe}, {"postprofile", hintNoise | hintUserCard}, {"popover", hintSubscribe}}
	formsR = []compoundForm{{"richtext", hintPositive}, {"related", hintRelated}, {"recommend", hintRelated}, {"readnext", hintRelated}}
	formsS = []compoundForm{{"storybody", hintArticleBody}, {"storycontent", hintArticleBody}, {"storytext", hintArticleBody}, {"sidebar", hintSidebar}, {"socialshare", hintShare}, {"sharebar", hintShare}, {"sharing", hintShare}, {"sharetools", hintShare}, {"socialmedia", hintShare}, {"sponsor", hintAd}, {"subscribe", hintSubscribe}, {"signup", hintSubscribe}}
	formsT = []compoundForm{{"taboola", hintRelated}, {"trending", hintRelated}, {"timestamp", hintByline}}
	// a forum post's card of its author: rank, banners, join date and
	// post count ("message-userExtras", "userTitle", "user-info",
	// "postprofile", "user-stats"); the author's name and the post's
	// date are in the post's own header
	formsU = []compoundForm{{"userextras", hintNoise | hintUserCard}, {"usertitle", hintNoise | hintUserCard}, {"userbanner", hintNoise | hintUserCard}, {"userstat", hintNoise | hintUserCard}, {"userinfo", hintNoise | hintUserCard}}
	formsY = []compoundForm{{"youmaylike", hintRelated}}
)

// formsAd are the forms led by "ad": they match only where a word of
// the value starts (after a separator or at a capital letter: "ad-slot",
// "topAdUnit"); elsewhere the letters run on from a word ending in "ad"
// ("Lead_container", "thread-wrapper", "head-wrapper").
var formsAd = []compoundForm{{"advert", hintAd}, {"adslot", hintAd}, {"adunit", hintAd}, {"adcontainer", hintAd}, {"adwrapper", hintAd}, {"adplaceholder", hintAd}}

// wordStarts marks where the words of a packed class value start, in
// its first 256 bytes; beyond them every position counts as one.
type wordStarts [4]uint64

func (w *wordStarts) set(i int) {
	if i < 256 {
		w[i>>6] |= 1 << (i & 63)
	}
}

// clearFrom forgets the starts from i on.
func (w *wordStarts) clearFrom(i int) {
	if i >= 256 {
		return
	}
	w[i>>6] &= 1<<(i&63) - 1
	for k := i>>6 + 1; k < len(w); k++ {
		w[k] = 0
	}
}

// at reports a word start at i; a nil set has one everywhere.
func (w *wordStarts) at(i int) bool {
	return w == nil || i >= 256 || w[i>>6]&(1<<(i&63)) != 0
}

// compoundHints matches the compound forms anywhere in low, the forms led
// by "ad" where ws marks a word start. The forms are grouped by first
// letter in a switch, so each byte is compared against a few of them
// only.
func compoundHints(low []byte, ws *wordStarts) uint32 {
	var bits uint32
	for i := 0; i+4 <= len(low); i++ {
		var forms []compoundForm
		switch low[i] {
		case 'a':
			forms = formsA
			if ws.at(i) {
				bits |= matchForms(low[i:], formsAd)
			}
		case 'b':
			forms = formsB
		case 'c':
			forms = formsC
		case 'd':
			forms = formsD
		case 'e':
			forms = formsE
		case 'f':
			if i >= 4 && string(low[i-4:i]) == "card" {
				// a card's foot, not the page's (see classHints)
				continue
			}
			forms = formsF
		case 'h':
			forms = formsH
		case 'm':
			forms = formsM
		case 'n':
			forms = formsN
		case 'o':
			forms = formsO
		case 'p':
			forms = formsP
		case 'r':
			forms = formsR
		case 's':
			forms = formsS
		case 't':
			forms = formsT
		case 'u':
			forms = formsU
		case 'y':
			forms = formsY
		default:
			continue
		}
		bits |= matchForms(low[i:], forms)
	}
	return bits
}

// matchForms returns the bits of the forms that rest starts with.
func matchForms(rest []byte, forms []compoundForm) uint32 {
	var bits uint32
	for _, f := range forms {
		if len(f.s) <= len(rest) && string(rest[:len(f.s)]) == f.s {
			bits |= f.bits
		}
	}
	return bits
}

// classHints returns the hint bits of a class, id or itemprop value. A
// word after "with", "has", "no" or "without" describes a layout, not the
// element ("content-with-sidebar"), and gives no hint. What precedes a
// colon in a class name is a condition of utility CSS ("print:hidden",
// "md:flex", "group-hover:underline"): when the style applies, not what
// the element is, and it gives no hint either.
func classHints(val []byte, scratch *[]byte) uint32 {
	if len(val) == 0 {
		return 0
	}
	low := lowerInto(val, scratch)
	var bits uint32
	// the bits of the class name being read, kept once it ends without
	// a colon
	var nameBits uint32
	// whole tokens; the letters and digits of the kept ones are packed
	// at the front of low for the compound search
	packed := 0
	var ws wordStarts
	nameStart := 0 // where the class name's tokens start in packed
	start := -1
	skipNext := false
	first := true // the token starts a class name
	// navBit is the navigation bit the previous token of the class name
	// gave, when it was "nav" or "navigation"
	var navBit uint32
	// widgetLead: the class name opens with "widget", which gave it
	// the sidebar bit
	widgetLead := false
	for i := 0; i <= len(low); i++ {
		alnum := i < len(low) && (('a' <= low[i] && low[i] <= 'z') || ('0' <= low[i] && low[i] <= '9'))
		if alnum {
			if start < 0 {
				start = i
			}
			continue
		}
		space := i == len(low) || low[i] == ' ' || low[i] == '\t' || low[i] == '\n'
		colon := i < len(low) && low[i] == ':'
		ended := start >= 0
		if ended {
			w := low[start:i]
			wStart := start
			start = -1
			lead := first
			first = space
			if skipNext {
				skipNext = false
			} else if string(w) == "with" || string(w) == "has" || string(w) == "no" || string(w) == "without" || string(w) == "w" {
				skipNext = true
			} else if layoutWord(w) {
				// the same words run together ("p-body-main--withSidebar",
				// "mainContainer_noSidebar"): a layout, not the element
			} else if string(w) == "footer" && packed-nameStart >= 4 && string(low[packed-4:packed]) == "card" {
				// "card-footer", "CustomerCardFooter": the foot of a
				// card (its quote's author, its price), not the page's
				navBit = 0
			} else if navBit != 0 && controlWord(w) {
				// "nav-btns", "nav-arrows": the element has navigation
				// buttons (a carousel of cards), it is not a navigation
				nameBits &^= navBit
				navBit = 0
			} else if widgetLead && serialNumber(w) {
				// "widget_1753096675076": the serial number a site
				// builder gives each module of a page, not a
				// sidebar's widget
				nameBits &^= hintSidebar
				widgetLead = false
			} else {
				h := tokenHints(w)
				navBit = 0
				widgetLead = false
				if string(w) == "nav" || string(w) == "navigation" {
					navBit = h & hintNav
				}
				nameBits |= h
				if lead && (string(w) == "widget" || string(w) == "widgets") && nameBits&hintSidebar == 0 {
					// "widget", "widget_text", "widget-area": a
					// sidebar's parts; inside a name
					// ("elementor-widget-text-editor") the word is a
					// page builder's unit of content
					nameBits |= hintSidebar
					widgetLead = true
				}
				// where its words start, for the forms led by "ad":
				// the token's start and its capitals ("topAdUnit")
				ws.set(packed)
				for j := wStart + 1; j < i; j++ {
					if 'A' <= val[j] && val[j] <= 'Z' {
						ws.set(packed + j - wStart)
					}
				}
				packed += copy(low[packed:], w)
			}
		}
		if space || colon {
			navBit = 0
			widgetLead = false
		}
		switch {
		case colon:
			// the words so far name a condition: forget them
			nameBits = 0
			ws.clearFrom(nameStart)
			packed = nameStart
			skipNext = false
			first = true
		case space:
			bits |= nameBits
			nameBits = 0
			if !ended {
				// "content-with sidebar" reads across the space
				skipNext = false
			}
			first = true
			// a new class name: keep compounds from spanning two
			if packed > nameStart && packed < i {
				low[packed] = ' '
				packed++
			}
			nameStart = packed
		}
	}
	low = low[:packed]
	if string(low) == "secondary" {
		// id="secondary", the second column of many themes; among other
		// classes the word names a colour or a weight ("text-secondary")
		bits |= hintSidebar
	}
	bits |= compoundHints(low, &ws)
	if bits&hintEmbed != 0 {
		bits &^= hintShare
	}
	if bits&hintCaption != 0 && typeScaleCaption(val) {
		bits &^= hintCaption
	}
	return bits
}

// serialNumber reports a token of minSerialDigits digits or more: a
// number a program gave, not a word.
func serialNumber(w []byte) bool {
	if len(w) < minSerialDigits {
		return false
	}
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// minSerialDigits is the length of a serial number in a class or id.
const minSerialDigits = 6

// controlWord reports a word naming the controls of a widget: after
// "nav" it says the element has them ("slider-nav-arrows").
func controlWord(w []byte) bool {
	switch string(w) {
	case "btn", "btns", "button", "buttons", "arrow", "arrows", "dots", "controls":
		return true
	}
	return false
}

// layoutWord reports a token that is "with", "without", "has" or "no"
// run together with a word naming chrome: "withsidebar", "nosidebar",
// "hascomments" describe the layout around an element, not the element.
// (A figure "withoutCaption" is still a figure's furniture.)
func layoutWord(w []byte) bool {
	if len(w) < 5 || w[0] != 'w' && w[0] != 'h' && w[0] != 'n' {
		return false
	}
	for _, p := range [...]string{"without", "with", "has", "no"} {
		if len(w) > len(p)+2 && string(w[:len(p)]) == p {
			rest := w[len(p):]
			return (tokenHints(rest)|compoundHints(rest, nil))&(hintsNegative|hintHeader) != 0
		}
	}
	return false
}

// hiddenClass reports class tokens that conventionally hide an element
// (hidden, sr-only, visually-hidden, d-none...), unless another token
// shows it again at some screen size.
func hiddenClass(val []byte, scratch *[]byte) bool {
	low := lowerInto(val, scratch)
	hidden, shown := false, false
	for len(low) > 0 {
		i := 0
		for i < len(low) && !isCSSSpace(low[i]) {
			i++
		}
		f := low[:i]
		for i < len(low) && isCSSSpace(low[i]) {
			i++
		}
		low = low[i:]
		if len(f) == 0 {
			continue
		}
		switch string(f) {
		case "hidden", "hide", "d-none", "sr-only", "visually-hidden",
			"visuallyhidden", "screen-reader-text", "screen-reader-only",
			"is-hidden", "u-hidden", "invisible", "display-none",
			"element-invisible", "offscreen", "hidden-visually", "a11y-hidden":
			hidden = true
		default:
			if bytes.HasPrefix(f, []byte("d-")) && (bytes.HasSuffix(f, []byte("-block")) ||
				bytes.HasSuffix(f, []byte("-flex")) || bytes.HasSuffix(f, []byte("-inline")) ||
				bytes.HasSuffix(f, []byte("-inline-block")) || bytes.HasSuffix(f, []byte("-grid")) ||
				bytes.HasSuffix(f, []byte("-table"))) {
				shown = true
			}
			if j := bytes.IndexByte(f, ':'); j > 0 {
				switch string(f[j+1:]) {
				case "block", "flex", "inline", "inline-block", "grid", "table", "contents":
					shown = true
				}
			}
		}
	}
	return hidden && !shown
}

func isCSSSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// hiddenStyle reports whether a declaration list hides the element:
// display:none, visibility:hidden or collapse, content-visibility:hidden,
// opacity:0, font-size:0, transform:scale(0), a zero height with hidden
// overflow, a clip to nothing, or an absolute position or text indent far
// off screen; in any case and spacing, with comments and escapes removed
// and the last declaration of a property winning.
func hiddenStyle(val []byte, scratch *[]byte) bool {
	hidden, _ := styleHiding(val, scratch)
	return hidden
}

// styleHiding is hiddenStyle, and whether opacity:0 is all that hides the
// element: it is drawn, transparent, as a fade-in starts.
func styleHiding(val []byte, scratch *[]byte) (hidden, faded bool) {
	s := normalizeCSS(val, scratch)
	var display, visibility, cv, opacity, fontSize, scale int8 // -1 shown, 1 hidden
	positioned, offside, indent, clipped, zeroHeight, overflowHidden := false, false, false, false, false, false
	for len(s) > 0 {
		var decl []byte
		if i := bytes.IndexByte(s, ';'); i >= 0 {
			decl, s = s[:i], s[i+1:]
		} else {
			decl, s = s, nil
		}
		c := bytes.IndexByte(decl, ':')
		if c < 0 {
			continue
		}
		prop, v := decl[:c], decl[c+1:]
		v = bytes.TrimSuffix(v, []byte("!important"))
		set := func(x *int8, hidden bool) {
			if hidden {
				*x = 1
			} else {
				*x = -1
			}
		}
		switch string(prop) {
		case "display":
			set(&display, string(v) == "none")
		case "visibility":
			set(&visibility, string(v) == "hidden" || string(v) == "collapse")
		case "content-visibility":
			set(&cv, string(v) == "hidden")
		case "opacity":
			set(&opacity, isZeroLength(v))
		case "font-size":
			set(&fontSize, isZeroLength(v))
		case "transform":
			set(&scale, string(v) == "scale(0)" || string(v) == "scale(0,0)" || string(v) == "scalex(0)" || string(v) == "scaley(0)")
		case "position":
			positioned = string(v) == "absolute" || string(v) == "fixed"
		case "left", "top", "right":
			offside = isFarNegative(v)
		case "text-indent":
			indent = isFarNegative(v)
		case "clip":
			clipped = isEmptyClip(v)
		case "height", "max-height":
			zeroHeight = isZeroLength(v)
		case "overflow", "overflow-y":
			overflowHidden = string(v) == "hidden" || string(v) == "clip"
		}
	}
	other := display == 1 || visibility == 1 || cv == 1 || fontSize == 1 ||
		scale == 1 || (positioned && (offside || clipped)) || indent || (zeroHeight && overflowHidden)
	return other || opacity == 1, opacity == 1 && !other
}

// isFarNegative reports an offset that puts an element off screen: at
// least 999px (or 50em, 100%, 100vw) to the left or top.
func isFarNegative(v []byte) bool {
	if len(v) < 2 || v[0] != '-' {
		return false
	}
	n, i := 0, 1
	for i < len(v) && v[i] >= '0' && v[i] <= '9' && n < 1e6 {
		n = n*10 + int(v[i]-'0')
		i++
	}
	for i < len(v) && (v[i] == '.' || (v[i] >= '0' && v[i] <= '9')) {
		i++
	}
	switch string(v[i:]) {
	case "px", "pt":
		return n >= 999
	case "em", "rem":
		return n >= 50
	case "%", "vw", "vh":
		return n >= 100
	}
	return false
}

// isEmptyClip reports clip:rect() to a point or a pixel.
func isEmptyClip(v []byte) bool {
	if !bytes.HasPrefix(v, []byte("rect(")) || !bytes.HasSuffix(v, []byte(")")) {
		return false
	}
	for _, c := range v[len("rect(") : len(v)-1] {
		switch c {
		case '0', '1', ',', 'p', 'x':
		default:
			return false
		}
	}
	return true
}

// isZeroLength reports a CSS number that is zero with any unit.
func isZeroLength(v []byte) bool {
	if len(v) == 0 {
		return false
	}
	digits := 0
	i := 0
	for ; i < len(v); i++ {
		c := v[i]
		if c == '0' || c == '.' || c == '+' || c == '-' {
			if c == '0' {
				digits++
			}
			continue
		}
		break
	}
	if digits == 0 {
		return false
	}
	for ; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z') && c != '%' {
			return false
		}
	}
	return true
}

// normalizeCSS lower-cases a declaration list and removes white space,
// comments and escapes, so that "Display : NO\NE /**/ !important" reads
// "display:none!important".
func normalizeCSS(val []byte, scratch *[]byte) []byte {
	// each byte of val gives at most one byte of the result
	out := *scratch
	if cap(out) < len(val) {
		out = make([]byte, len(val))
	}
	out = out[:len(val)]
	n := 0
	for i := 0; i < len(val); i++ {
		c := val[i]
		switch cssByteClass[c] {
		case cssPlain:
		case cssUpper:
			c += 'a' - 'A'
		case cssSpace:
			continue
		case cssSlash:
			if i+1 < len(val) && val[i+1] == '*' {
				end := bytes.Index(val[i+2:], []byte("*/"))
				if end < 0 {
					i = len(val)
				} else {
					i += 2 + end + 1
				}
				continue
			}
		case cssEscape:
			if i+1 == len(val) {
				break
			}
			// hex escape: up to six hex digits and one optional space
			j := i + 1
			var r rune
			for j < len(val) && j < i+7 && isHex(val[j]) {
				r = r*16 + rune(hexVal(val[j]))
				j++
			}
			if j > i+1 {
				if j < len(val) && (val[j] == ' ' || val[j] == '\t' || val[j] == '\n') {
					j++
				}
				if r > 0 && r < utf8.RuneSelf {
					c = byte(r)
				} else {
					c = '?'
				}
				i = j - 1
			} else {
				c = val[i+1]
				i++
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
		}
		out[n] = c
		n++
	}
	*scratch = out[:0]
	return out[:n]
}

// The classes of bytes normalizeCSS tells apart.
const (
	cssPlain uint8 = iota
	cssUpper
	cssSpace
	cssSlash
	cssEscape
)

var cssByteClass = func() (t [256]uint8) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = cssUpper
	}
	for _, c := range " \t\n\r\f" {
		t[c] = cssSpace
	}
	t['/'] = cssSlash
	t['\\'] = cssEscape
	return t
}()

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func hexVal(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// codeLanguage finds a language in a class value: "language-go",
// "lang-js", "highlight-source-python", "brush: ruby".
func codeLanguage(val []byte) string {
	for _, f := range bytes.Fields(val) {
		for _, prefix := range []string{"language-", "lang-", "highlight-source-", "highlight-"} {
			if len(f) > len(prefix) && asciiEqualFold(f[:len(prefix)], prefix) {
				return codeLanguageWord(f[len(prefix):])
			}
		}
	}
	if i := bytes.Index(val, []byte("brush:")); i >= 0 {
		rest := bytes.Fields(val[i+len("brush:"):])
		if len(rest) > 0 {
			return codeLanguageWord(bytes.TrimSuffix(rest[0], []byte(";")))
		}
	}
	return ""
}

// codeLanguageWord keeps a language name usable after a code fence:
// letters, digits and + # - _ . only, at most 24 bytes.
func codeLanguageWord(val []byte) string {
	val = bytes.TrimSpace(val)
	if len(val) == 0 || len(val) > 24 {
		return ""
	}
	out := make([]byte, 0, len(val))
	for _, c := range val {
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '#', c == '-', c == '_', c == '.':
			out = append(out, c)
		case 'A' <= c && c <= 'Z':
			out = append(out, c+'a'-'A')
		default:
			return ""
		}
	}
	return string(out)
}

// textCounts counts the non-space characters of s and its sentence
// punctuation.
func textCounts(s string) (chars, punct int) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch c {
			case ' ', '\t', '\n', '\r', '\f', '\v':
				continue
			case '.', ',', ';', ':', '!', '?':
				punct++
			}
			chars++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch r {
		case '\u00a0', '\u2000', '\u2001', '\u2002', '\u2003', '\u2004', '\u2005',
			'\u2006', '\u2007', '\u2008', '\u2009', '\u200a', '\u202f', '\u205f', '\u3000':
			continue
		case '。', '，', '、', '；', '：', '！', '？', '…', '؟', '،', '।':
			punct++
		default:
			if unicode.IsSpace(r) {
				continue
			}
		}
		chars++
	}
	return chars, punct
}

// minSlugWords is the number of words from which an id reads as a slug
// of a heading rather than a name.
const minSlugWords = 4

// slugLike reports an id of minSlugWords or more words joined by
// hyphens or underscores: the anchor of a heading.
func slugLike(val []byte) bool {
	words, in := 0, false
	for _, c := range val {
		switch {
		case c == '-' || c == '_':
			in = false
		case ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || c >= 0x80:
			if !in {
				words++
				in = true
			}
		default:
			// a space, a colon, a dot: not a slug
			return false
		}
	}
	return words >= minSlugWords
}
