package reports

import (
	"math"
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// fr names a flavor's resource.
type fr struct{ Flavor, Resource string }

// gfr names a flavor's resource held by a group (a ClusterQueue or a team).
type gfr struct{ Group, Flavor, Resource string }

// gr names a resource requested by a ClusterQueue's pending workloads.
type gr struct{ Group, Resource string }

// keys numbers the series of one kind: values of segment i are a dense
// slice indexed by key number.
type keys[K comparable] struct {
	list []K
	idx  map[K]int
}

func (k *keys[K]) add(key K) int {
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

// segment is a span of simulated time during which no holding and no
// pending demand changed. Its values are indexed by the timeline's keys.
type segment struct {
	From, To time.Duration
	// flavor is the quota admitted on each flavor's resource; cq and team
	// split it by ClusterQueue and by team.
	flavor, cq, team []float64
	// pending is the requests of the workloads waiting for admission per
	// ClusterQueue and resource; pendingN counts them per ClusterQueue.
	pending  []float64
	pendingN []float64
}

// Seconds is the segment's length.
func (s segment) Seconds() float64 { return (s.To - s.From).Seconds() }

// timeline is the run cut into segments, covering [0, end).
type timeline struct {
	Segments []segment
	End      time.Duration
	flavors  keys[fr]
	cqs      keys[gfr]
	teams    keys[gfr]
	pending  keys[gr]
	// queues numbers ClusterQueues for pendingN.
	queues keys[string]
	// lent is what each ClusterQueue series lent, per segment (lending).
	lent [][]float64
}

// Value lookups; a key the run never saw is 0.
func (tl *timeline) flavorAt(s segment, k fr) float64 { return at(s.flavor, tl.flavors.idx, k) }
func (tl *timeline) cqAt(s segment, k gfr) float64    { return at(s.cq, tl.cqs.idx, k) }
func (tl *timeline) teamAt(s segment, k gfr) float64  { return at(s.team, tl.teams.idx, k) }
func (tl *timeline) pendingAt(s segment, cq, res string) float64 {
	return at(s.pending, tl.pending.idx, gr{cq, res})
}
func (tl *timeline) pendingNAt(s segment, cq string) float64 {
	return at(s.pendingN, tl.queues.idx, cq)
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

// buildTimeline sweeps the run's holdings and pending spans.
func buildTimeline(run *record.Run) *timeline {
	tl := &timeline{End: run.End}
	for _, f := range sortedKeys(run.Capacity) {
		for _, res := range sortedKeys(run.Capacity[f]) {
			tl.flavors.add(fr{f, res})
		}
	}
	for _, cq := range sortedKeys(run.Quotas) {
		tl.queues.add(cq)
		for _, f := range sortedKeys(run.Quotas[cq]) {
			for _, res := range sortedKeys(run.Quotas[cq][f]) {
				tl.cqs.add(gfr{cq, f, res})
			}
		}
	}
	var deltas []delta
	byWorkload := map[*record.Workload][]record.Interval{}
	for _, h := range run.Holdings() {
		byWorkload[h.Workload] = append(byWorkload[h.Workload], h)
		cq, team := h.Workload.ClusterQueue, h.Workload.Team
		for _, f := range sortedKeys(h.Usage) {
			for _, res := range sortedKeys(h.Usage[f]) {
				v := h.Usage[f][res]
				for series, i := range [3]int{tl.flavors.add(fr{f, res}), tl.cqs.add(gfr{cq, f, res}), tl.teams.add(gfr{team, f, res})} {
					deltas = append(deltas, delta{h.From, series, i, v}, delta{h.To, series, i, -v})
				}
			}
		}
	}
	for _, w := range run.Workloads {
		spans := pendingSpans(w, byWorkload[w], run.End)
		if len(spans) == 0 {
			continue
		}
		q := tl.queues.add(w.ClusterQueue)
		for _, p := range spans {
			deltas = append(deltas, delta{p[0], 4, q, 1}, delta{p[1], 4, q, -1})
			for _, res := range sortedKeys(w.Requests) {
				i := tl.pending.add(gr{w.ClusterQueue, res})
				deltas = append(deltas, delta{p[0], 3, i, w.Requests[res]}, delta{p[1], 3, i, -w.Requests[res]})
			}
		}
	}
	sort.SliceStable(deltas, func(i, j int) bool { return deltas[i].t < deltas[j].t })

	state := [5][]float64{
		make([]float64, len(tl.flavors.list)), make([]float64, len(tl.cqs.list)), make([]float64, len(tl.teams.list)),
		make([]float64, len(tl.pending.list)), make([]float64, len(tl.queues.list)),
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
		tl.Segments = append(tl.Segments, segment{From: t, To: next,
			flavor: snapshot(state[0]), cq: snapshot(state[1]), team: snapshot(state[2]),
			pending: snapshot(state[3]), pendingN: snapshot(state[4])})
		t = next
	}
	tl.lent = lending(run, tl)
	return tl
}

// snapshot copies values, rounding away float residues.
func snapshot(vals []float64) []float64 {
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = clean(v)
	}
	return out
}

func clean(v float64) float64 {
	if math.Abs(v) < 1e-9 {
		return 0
	}
	return v
}

// pendingSpans are the spans [from, to) during which w waited for
// admission: from arrival, and from each preemption or eviction, until the
// next admission, its end (finished, deleted) or the end of the run.
func pendingSpans(w *record.Workload, holdings []record.Interval, end time.Duration) [][2]time.Duration {
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

// integral is ∫ f over the timeline, in value × seconds.
func (tl *timeline) integral(f func(segment) float64) float64 {
	sum := 0.0
	for _, s := range tl.Segments {
		sum += f(s) * s.Seconds()
	}
	return sum
}

// peak is the largest value f takes.
func (tl *timeline) peak(f func(segment) float64) float64 {
	p := 0.0
	for _, s := range tl.Segments {
		p = math.Max(p, f(s))
	}
	return p
}
