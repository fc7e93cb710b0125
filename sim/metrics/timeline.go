package metrics

import (
	"math"
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// FR names a flavor's resource.
type FR struct{ Flavor, Resource string }

// GFR names a flavor's resource held by a group (a ClusterQueue or a team).
type GFR struct{ Group, Flavor, Resource string }

// GR names a resource requested by a ClusterQueue's pending workloads.
type GR struct{ Group, Resource string }

// Keys numbers the series of one kind: the values of a segment are a dense
// slice indexed by key number, in the order keys were first seen.
type Keys[K comparable] struct {
	list []K
	idx  map[K]int
}

// List is every key, by number.
func (k *Keys[K]) List() []K { return k.list }

// Index is the number of key; false when the run never saw it.
func (k *Keys[K]) Index(key K) (int, bool) {
	i, ok := k.idx[key]
	return i, ok
}

func (k *Keys[K]) add(key K) int {
	if k.idx == nil {
		k.idx = map[K]int{}
	}
	if i, ok := k.idx[key]; ok {
		return i
	}
	k.idx[key] = len(k.list)
	k.list = append(k.list, key)
	return len(k.list) - 1
}

// Segment is a span of simulated time during which no holding and no
// pending demand changed. Its values are indexed by the timeline's keys.
type Segment struct {
	From, To time.Duration
	// Flavor is the quota admitted on each flavor's resource (Flavors);
	// CQ and Team split it by ClusterQueue (CQs) and by team (Teams).
	Flavor, CQ, Team []float64
	// Pending is the requests of the workloads waiting for admission per
	// ClusterQueue and resource (Pending); PendingN counts them per
	// ClusterQueue (Queues).
	Pending  []float64
	PendingN []float64
}

// Seconds is the segment's length.
func (s Segment) Seconds() float64 { return (s.To - s.From).Seconds() }

// Timeline is a run cut into segments covering [0, End): what Kueue had
// admitted and what waited, at every simulated instant, rebuilt from the
// log's admissions, preemptions, evictions and ends alone.
type Timeline struct {
	Segments []Segment
	End      time.Duration
	Flavors  Keys[FR]
	CQs      Keys[GFR]
	Teams    Keys[GFR]
	Pending  Keys[GR]
	// Queues numbers ClusterQueues for PendingN.
	Queues Keys[string]
	// Lent is what each ClusterQueue series lent, per segment (see
	// lending).
	Lent [][]float64
}

// Value lookups; a key the run never saw is 0.

// FlavorAt is what Kueue had admitted of k in s.
func (tl *Timeline) FlavorAt(s Segment, k FR) float64 { return at(s.Flavor, tl.Flavors.idx, k) }

// CQAt is what ClusterQueue k.Group held of k's flavor resource in s.
func (tl *Timeline) CQAt(s Segment, k GFR) float64 { return at(s.CQ, tl.CQs.idx, k) }

// TeamAt is what team k.Group held of k's flavor resource in s.
func (tl *Timeline) TeamAt(s Segment, k GFR) float64 { return at(s.Team, tl.Teams.idx, k) }

// PendingAt is what cq's pending workloads requested of res in s.
func (tl *Timeline) PendingAt(s Segment, cq, res string) float64 {
	return at(s.Pending, tl.Pending.idx, GR{cq, res})
}

// PendingNAt counts cq's pending workloads in s.
func (tl *Timeline) PendingNAt(s Segment, cq string) float64 {
	return at(s.PendingN, tl.Queues.idx, cq)
}

func at[K comparable](vals []float64, idx map[K]int, k K) float64 {
	if i, ok := idx[k]; ok {
		return vals[i]
	}
	return 0
}

// delta is one step of one series.
type delta struct {
	t    time.Duration
	vals int // which series: 0 flavor, 1 cq, 2 team, 3 pending, 4 pendingN
	i    int
	v    float64
}

// NewTimeline sweeps the run's holdings and pending spans.
func NewTimeline(run *record.Run) *Timeline {
	tl := &Timeline{End: run.End}
	for _, f := range sortedKeys(run.Capacity) {
		for _, res := range sortedKeys(run.Capacity[f]) {
			tl.Flavors.add(FR{f, res})
		}
	}
	for _, cq := range sortedKeys(run.Quotas) {
		tl.Queues.add(cq)
		for _, f := range sortedKeys(run.Quotas[cq]) {
			for _, res := range sortedKeys(run.Quotas[cq][f]) {
				tl.CQs.add(GFR{cq, f, res})
			}
		}
	}
	var deltas []delta
	for _, h := range run.Holdings() {
		cq, team := h.Workload.ClusterQueue, h.Workload.Team
		for _, f := range sortedKeys(h.Usage) {
			for _, res := range sortedKeys(h.Usage[f]) {
				v := h.Usage[f][res]
				for series, i := range [3]int{tl.Flavors.add(FR{f, res}), tl.CQs.add(GFR{cq, f, res}), tl.Teams.add(GFR{team, f, res})} {
					deltas = append(deltas, delta{h.From, series, i, v}, delta{h.To, series, i, -v})
				}
			}
		}
	}
	for _, p := range pendingSpans(run) {
		w := p.Workload
		q := tl.Queues.add(w.ClusterQueue)
		deltas = append(deltas, delta{p.From, 4, q, 1}, delta{p.To, 4, q, -1})
		for _, res := range sortedKeys(w.Requests) {
			i := tl.Pending.add(GR{w.ClusterQueue, res})
			deltas = append(deltas, delta{p.From, 3, i, w.Requests[res]}, delta{p.To, 3, i, -w.Requests[res]})
		}
	}
	sort.SliceStable(deltas, func(i, j int) bool { return deltas[i].t < deltas[j].t })

	state := [5][]float64{
		make([]float64, len(tl.Flavors.list)), make([]float64, len(tl.CQs.list)), make([]float64, len(tl.Teams.list)),
		make([]float64, len(tl.Pending.list)), make([]float64, len(tl.Queues.list)),
	}
	i := 0
	for t := time.Duration(0); t < run.End; {
		for ; i < len(deltas) && deltas[i].t <= t; i++ {
			d := deltas[i]
			state[d.vals][d.i] += d.v
		}
		next := run.End
		if i < len(deltas) && deltas[i].t < next {
			next = deltas[i].t
		}
		tl.Segments = append(tl.Segments, Segment{From: t, To: next,
			Flavor: snapshot(state[0]), CQ: snapshot(state[1]), Team: snapshot(state[2]),
			Pending: snapshot(state[3]), PendingN: snapshot(state[4])})
		t = next
	}
	tl.Lent = lending(run, tl)
	return tl
}

// snapshot copies values, rounding away float residues.
func snapshot(vals []float64) []float64 {
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = Clean(v)
	}
	return out
}

// Clean rounds a float residue (|v| < 1e-9) to 0.
func Clean(v float64) float64 {
	if math.Abs(v) < 1e-9 {
		return 0
	}
	return v
}

// Span is a span [From, To) of simulated time during which a workload
// waited for admission.
type Span struct {
	From, To time.Duration
	Workload *record.Workload
}

// pendingSpans are every workload's waits, in the run's workload order.
func pendingSpans(run *record.Run) []Span {
	byWorkload := map[*record.Workload][]record.Interval{}
	for _, h := range run.Holdings() {
		byWorkload[h.Workload] = append(byWorkload[h.Workload], h)
	}
	var out []Span
	for _, w := range run.Workloads {
		for _, p := range PendingSpans(w, byWorkload[w], run.End) {
			out = append(out, Span{From: p[0], To: p[1], Workload: w})
		}
	}
	return out
}

// PendingSpans are the spans [from, to) during which w waited for
// admission: from arrival, and from each preemption or eviction, until the
// next admission, its end (finished, deleted) or the end of the run.
// holdings are w's own (record.Run.Holdings).
func PendingSpans(w *record.Workload, holdings []record.Interval, end time.Duration) [][2]time.Duration {
	if w.Refused != nil {
		return nil
	}
	stop := end
	if w.Finished != nil && w.Finished.T.D() < stop {
		stop = w.Finished.T.D()
	}
	if w.Deleted != nil && *w.Deleted < stop {
		stop = *w.Deleted
	}
	sort.Slice(holdings, func(i, j int) bool { return holdings[i].From < holdings[j].From })
	var out [][2]time.Duration
	cursor := w.Arrived
	for _, h := range holdings {
		if h.From > cursor && cursor < stop {
			out = append(out, [2]time.Duration{cursor, min(h.From, stop)})
		}
		cursor = max(cursor, h.To)
	}
	if cursor < stop {
		out = append(out, [2]time.Duration{cursor, stop})
	}
	return out
}

// Integral is ∫ f over the timeline, in value × seconds.
func (tl *Timeline) Integral(f func(Segment) float64) float64 {
	sum := 0.0
	for _, s := range tl.Segments {
		sum += f(s) * s.Seconds()
	}
	return sum
}

// Peak is the largest value f takes.
func (tl *Timeline) Peak(f func(Segment) float64) float64 {
	p := 0.0
	for _, s := range tl.Segments {
		p = math.Max(p, f(s))
	}
	return p
}

// pendingCursor walks the pending spans along the timeline: after
// advance(t), active holds, per ClusterQueue, the workloads waiting at t
// that keep accepts (nil: all), and count how many.
type pendingCursor struct {
	edges  []spanEdge
	next   int
	keep   func(*record.Workload) bool
	active map[string]map[*record.Workload]bool
	count  map[string]int
}

type spanEdge struct {
	t  time.Duration
	in bool
	w  *record.Workload
}

func newPendingCursor(run *record.Run, keep func(*record.Workload) bool) *pendingCursor {
	c := &pendingCursor{keep: keep, active: map[string]map[*record.Workload]bool{}, count: map[string]int{}}
	for _, p := range pendingSpans(run) {
		if keep == nil || keep(p.Workload) {
			c.edges = append(c.edges, spanEdge{p.From, true, p.Workload}, spanEdge{p.To, false, p.Workload})
		}
	}
	// At one instant, ends before starts: a workload preempted and
	// waiting again at t is waiting at t.
	sort.SliceStable(c.edges, func(i, j int) bool {
		a, b := c.edges[i], c.edges[j]
		if a.t != b.t {
			return a.t < b.t
		}
		return !a.in && b.in
	})
	return c
}

// advance applies every span start and end at or before t.
func (c *pendingCursor) advance(t time.Duration) {
	for ; c.next < len(c.edges) && c.edges[c.next].t <= t; c.next++ {
		e := c.edges[c.next]
		cq := e.w.ClusterQueue
		if e.in {
			if c.active[cq] == nil {
				c.active[cq] = map[*record.Workload]bool{}
			}
			c.active[cq][e.w] = true
		} else {
			delete(c.active[cq], e.w)
		}
		c.count[cq] = len(c.active[cq])
	}
}

// waiting lists cq's waiting workloads by name.
func (c *pendingCursor) waiting(cq string) []*record.Workload {
	out := make([]*record.Workload, 0, len(c.active[cq]))
	for w := range c.active[cq] {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
