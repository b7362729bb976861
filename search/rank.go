package search

import "sort"

// Reciprocal rank fusion (REQ-RANK-005, RFC 008): each observation adds
// rrfScale / (rrfK + rank) in integer arithmetic, so the score does not
// depend on the order in which answers arrived.
const (
	rrfK     = 60
	rrfScale = 1_000_000
)

// observation is one engine's sighting of a result (REQ-RANK-001).
type observation struct {
	engine int // index in the selection, which is preference order
	rank   int // 1-based
	norm   normalized
	raw    RawResult
}

// merged is one result after deduplication.
type merged struct {
	key   string
	obs   []observation // in selection order
	score int64
	best  observation
}

// mergeResults groups the answers (given per engine in selection order) by
// comparison key (REQ-RANK-004) and orders them by the total order of
// REQ-RANK-006: score, best rank, preference of the best engine, key.
func mergeResults(answers [][]observation) []*merged {
	byKey := map[string]*merged{}
	var order []*merged
	for _, obs := range answers {
		seen := map[string]bool{}
		for _, o := range obs {
			if seen[o.norm.key] {
				continue // an engine's own duplicate: its best rank counts
			}
			seen[o.norm.key] = true
			m := byKey[o.norm.key]
			if m == nil {
				m = &merged{key: o.norm.key}
				byKey[o.norm.key] = m
				order = append(order, m)
			}
			m.obs = append(m.obs, o)
		}
	}
	for _, m := range order {
		m.best = m.obs[0]
		for _, o := range m.obs {
			m.score += rrfScale / int64(rrfK+o.rank)
			if o.rank < m.best.rank || o.rank == m.best.rank && o.engine < m.best.engine {
				m.best = o
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		switch {
		case a.score != b.score:
			return a.score > b.score
		case a.best.rank != b.best.rank:
			return a.best.rank < b.best.rank
		case a.best.engine != b.best.engine:
			return a.best.engine < b.best.engine
		}
		return a.key < b.key
	})
	return order
}

// returnedURL is the URL shown for a merged result: the best observation's,
// except that when it is http and an https observation of the same resource
// exists, the best-ranked https one is shown (REQ-RANK-003).
func (m *merged) returnedURL() string {
	if m.best.norm.https {
		return m.best.norm.returned
	}
	var pick *observation
	for i := range m.obs {
		o := &m.obs[i]
		if o.norm.https && (pick == nil || o.rank < pick.rank || o.rank == pick.rank && o.engine < pick.engine) {
			pick = o
		}
	}
	if pick != nil {
		return pick.norm.returned
	}
	return m.best.norm.returned
}

// engineIDs lists the contributing engines in selection order.
func (m *merged) engineIDs(ids []string) []string {
	out := make([]string, 0, len(m.obs))
	seen := map[int]bool{}
	idx := make([]int, 0, len(m.obs))
	for _, o := range m.obs {
		if !seen[o.engine] {
			seen[o.engine] = true
			idx = append(idx, o.engine)
		}
	}
	sort.Ints(idx)
	for _, i := range idx {
		out = append(out, ids[i])
	}
	return out
}
