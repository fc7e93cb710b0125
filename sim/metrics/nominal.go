package metrics

import (
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Shortfall is a span of simulated time during which a ClusterQueue had a
// workload waiting that fit in its unused nominal quota: for every
// resource the workload requests, what the ClusterQueue held plus the
// request stays within its nominal quota (both summed over its flavors).
// Nominal quota is what Kueue guarantees a ClusterQueue, reclaiming it
// from borrowers when the ClusterQueue's preemption policy lets it.
type Shortfall struct {
	ClusterQueue string
	From, To     time.Duration
	// Open: it lasted until the end of the run.
	Open bool
	// Waiting are the workloads that fit, at From, by name.
	Waiting []*record.Workload
	// Used and Nominal are, at From, what the ClusterQueue held and its
	// nominal quota per resource, summed over flavors.
	Used, Nominal map[string]float64
}

// Duration is the shortfall's length.
func (s Shortfall) Duration() time.Duration { return s.To - s.From }

// NominalShortfalls lists every ClusterQueue's shortfalls, by ClusterQueue
// then time; consecutive instants of one ClusterQueue's shortfall are one
// span.
func NominalShortfalls(run *record.Run, tl *Timeline) []Shortfall {
	nominal := map[string]map[string]float64{}
	for cq, byFlavor := range run.Quotas {
		nominal[cq] = map[string]float64{}
		for _, byRes := range byFlavor {
			for res, v := range byRes {
				nominal[cq][res] += v
			}
		}
	}
	held := map[string][]int{} // ClusterQueue → its series
	for i, k := range tl.CQs.list {
		held[k.Group] = append(held[k.Group], i)
	}
	cursor := newPendingCursor(run, nil)
	open := map[string]*Shortfall{}
	var out []Shortfall
	closeAt := func(cq string, t time.Duration) {
		if s := open[cq]; s != nil {
			s.To = t
			out = append(out, *s)
			delete(open, cq)
		}
	}
	for _, seg := range tl.Segments {
		cursor.advance(seg.From)
		for _, cq := range sortedKeys(nominal) {
			if cursor.count[cq] == 0 {
				closeAt(cq, seg.From)
				continue
			}
			used := map[string]float64{}
			for _, i := range held[cq] {
				used[tl.CQs.list[i].Resource] += seg.CQ[i]
			}
			var fit []*record.Workload
			for w := range cursor.active[cq] {
				if fits(w.Requests, used, nominal[cq]) {
					fit = append(fit, w)
				}
			}
			sort.Slice(fit, func(i, j int) bool { return fit[i].Name < fit[j].Name })
			switch {
			case len(fit) == 0:
				closeAt(cq, seg.From)
			case open[cq] == nil:
				open[cq] = &Shortfall{ClusterQueue: cq, From: seg.From, Waiting: fit, Used: used, Nominal: nominal[cq]}
			}
		}
	}
	for _, cq := range sortedKeys(open) {
		open[cq].Open = true
		closeAt(cq, tl.End)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ClusterQueue != out[j].ClusterQueue {
			return out[i].ClusterQueue < out[j].ClusterQueue
		}
		return out[i].From < out[j].From
	})
	return out
}

// fits tells whether requests fit in the nominal quota left above used.
func fits(requests, used, nominal map[string]float64) bool {
	for res, v := range requests {
		if v <= 0 {
			continue
		}
		if nominal[res] <= 0 || used[res]+v > nominal[res]+1e-9 {
			return false
		}
	}
	return true
}
