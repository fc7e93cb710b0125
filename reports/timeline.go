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

// segment is a span of simulated time during which no holding and no
// pending demand changed.
type segment struct {
	From, To time.Duration
	// Flavor is the quota admitted on each flavor's resource.
	Flavor map[fr]float64
	// CQ and Team split Flavor by ClusterQueue and by team.
	CQ, Team map[gfr]float64
	// Pending is the requests of the workloads waiting for admission, per
	// ClusterQueue and resource; PendingN counts them per ClusterQueue.
	Pending  map[string]map[string]float64
	PendingN map[string]int
}

// Seconds is the segment's length.
func (s segment) Seconds() float64 { return (s.To - s.From).Seconds() }

// timeline is the run cut into segments, covering [0, end).
type timeline struct {
	Segments []segment
	End      time.Duration
}

// change is one step of a holding or a pending demand.
type change struct {
	t     time.Duration
	apply func(*segment)
}

// buildTimeline sweeps the run's holdings and pending spans.
func buildTimeline(run *record.Run) *timeline {
	var changes []change
	byWorkload := map[*record.Workload][]record.Interval{}
	for _, h := range run.Holdings() {
		h := h
		byWorkload[h.Workload] = append(byWorkload[h.Workload], h)
		cq, team := h.Workload.ClusterQueue, h.Workload.Team
		add := func(sign float64) func(*segment) {
			return func(s *segment) {
				for flavor, byRes := range h.Usage {
					for res, v := range byRes {
						s.Flavor[fr{flavor, res}] += sign * v
						s.CQ[gfr{cq, flavor, res}] += sign * v
						s.Team[gfr{team, flavor, res}] += sign * v
					}
				}
			}
		}
		changes = append(changes, change{h.From, add(1)}, change{h.To, add(-1)})
	}
	for _, w := range run.Workloads {
		w := w
		for _, p := range pendingSpans(w, byWorkload[w], run.End) {
			add := func(sign float64) func(*segment) {
				return func(s *segment) {
					if s.Pending[w.ClusterQueue] == nil {
						s.Pending[w.ClusterQueue] = map[string]float64{}
					}
					for res, v := range w.Requests {
						s.Pending[w.ClusterQueue][res] += sign * v
					}
					s.PendingN[w.ClusterQueue] += int(sign)
				}
			}
			changes = append(changes, change{p[0], add(1)}, change{p[1], add(-1)})
		}
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].t < changes[j].t })

	tl := &timeline{End: run.End}
	state := segment{Flavor: map[fr]float64{}, CQ: map[gfr]float64{}, Team: map[gfr]float64{},
		Pending: map[string]map[string]float64{}, PendingN: map[string]int{}}
	i := 0
	for t := time.Duration(0); t < run.End; {
		for ; i < len(changes) && changes[i].t <= t; i++ {
			changes[i].apply(&state)
		}
		next := run.End
		if i < len(changes) && changes[i].t < next {
			next = changes[i].t
		}
		tl.Segments = append(tl.Segments, snapshot(state, t, next))
		t = next
	}
	return tl
}

// snapshot copies the state for [from, to), rounding away float residues.
func snapshot(s segment, from, to time.Duration) segment {
	out := segment{From: from, To: to, Flavor: map[fr]float64{}, CQ: map[gfr]float64{}, Team: map[gfr]float64{},
		Pending: map[string]map[string]float64{}, PendingN: map[string]int{}}
	for k, v := range s.Flavor {
		out.Flavor[k] = clean(v)
	}
	for k, v := range s.CQ {
		out.CQ[k] = clean(v)
	}
	for k, v := range s.Team {
		out.Team[k] = clean(v)
	}
	for cq, byRes := range s.Pending {
		m := map[string]float64{}
		for res, v := range byRes {
			m[res] = clean(v)
		}
		out.Pending[cq] = m
	}
	for k, v := range s.PendingN {
		out.PendingN[k] = v
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
