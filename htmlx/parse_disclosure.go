package htmlx

import "golang.org/x/net/html/atom"

// The reading of text a reader can open (the maintainers' amendment of
// REQ-CTX-005). The threat behind the rule (THR-03) is text a reviewer
// cannot see; text one click away, or the page a browser shows with
// scripting off, is text a reviewer can see. So, unless the operator
// asks for the book's strict reading (fetch.read_collapsed = false):
//
//   - a closed <details> is read, its <summary> first;
//   - a disclosure panel is read though hidden by the hidden attribute,
//     an inline style or a class rule: an element with role=tabpanel, or
//     one whose id an aria-controls names on an element with role=tab or
//     with aria-expanded. The relation must be in the markup; a class
//     name alone never makes a panel;
//   - a <noscript> fallback is read only when the page read without it
//     is a script shell (ErrShownByScripts): what a browser with
//     scripting off shows (extract_read.go);
//   - everything else hidden stays out: aria-hidden="true", type=hidden,
//     an id rule of a style sheet, hiding with no disclosure relation,
//     templates, comments.
//
// Text so read is parsed, cleaned, judged and bounded as any other.

// readOpts say what of the hidden text a parse reads.
type readOpts struct {
	strict   bool // the book's reading: nothing hidden is read
	noscript bool // noscript fallbacks are read as markup
}

// How an element is hidden (attrs.hiddenBy).
const (
	hideAttr  uint8 = 1 << iota // the hidden attribute
	hideStyle                   // an inline style
	hideClass                   // a class: a style sheet's rule or a conventional hiding class
	hideID                      // a style sheet's rule for the id
	hideOther                   // aria-hidden="true", type=hidden
)

// liftable are the hidings a disclosure panel is read through.
const liftable = hideAttr | hideStyle | hideClass

// Bounds of the disclosure relations a parse keeps: ids named by
// controls, ids of hidden elements waiting for a control that may come
// later, and the length of an id worth keeping. Beyond them a panel is
// left hidden: the strict reading, never a wrong one.
const (
	maxControls = 1024
	maxPending  = 1024
	maxIDLen    = 256
)

// disclosures are the disclosure relations a parse has seen. A control
// may come before its panel (tabs above their panels, an accordion's
// button above its body) or after it; panels seen before their control
// are remembered (pending), and when a later control names one, the
// document is parsed a second time with the controls known from the
// start (preset). A page is parsed at most twice for its panels.
type disclosures struct {
	controls map[string]bool
	preset   bool
	pending  []string
}

// name records the ids of an aria-controls value (a list of ids
// separated by white space).
func (d *disclosures) name(list []byte) {
	for len(list) > 0 {
		for len(list) > 0 && isCSSSpace(list[0]) {
			list = list[1:]
		}
		f := firstField(list)
		if len(f) == 0 {
			return
		}
		list = list[len(f):]
		if len(f) > maxIDLen || len(d.controls) >= maxControls {
			continue
		}
		if d.controls == nil {
			d.controls = make(map[string]bool)
		}
		d.controls[string(f)] = true
	}
}

// reparse reports a pending panel that a later control named.
func (d *disclosures) reparse() bool {
	if d.preset {
		return false
	}
	for _, id := range d.pending {
		if d.controls[id] {
			return true
		}
	}
	return false
}

// disclose records the element's disclosure relation and shows a hidden
// disclosure panel.
func (p *parser) disclose(at *attrs) {
	if at.control && len(p.attrControls) > 0 {
		p.disc.name(p.attrControls)
	}
	if !at.hidden || at.hiddenBy&^liftable != 0 {
		return
	}
	if at.tabpanel {
		at.hidden = false
		return
	}
	id := p.attrID
	if len(id) == 0 || len(id) > maxIDLen {
		return
	}
	if p.disc.controls[string(id)] {
		at.hidden = false
		return
	}
	if !p.disc.preset && len(p.disc.pending) < maxPending {
		p.disc.pending = append(p.disc.pending, string(id))
	}
}

// summariesFirst moves the first <summary> of each <details> to the
// front, where a browser draws it.
func summariesFirst(t *tree) {
	if !t.details {
		return
	}
	nodes := t.nodes
	for i := range nodes {
		d := &nodes[i]
		if d.kind != kindElement || d.tag != atom.Details || d.first == nilNode {
			continue
		}
		s := d.first
		for s != nilNode && !(nodes[s].kind == kindElement && nodes[s].tag == atom.Summary) {
			s = nodes[s].next
		}
		if s == nilNode || s == d.first {
			continue
		}
		// unlink s, then link it first
		sn := &nodes[s]
		nodes[sn.prev].next = sn.next
		if sn.next != nilNode {
			nodes[sn.next].prev = sn.prev
		} else {
			d.last = sn.prev
		}
		sn.prev, sn.next = nilNode, d.first
		nodes[d.first].prev = s
		d.first = s
	}
}
