package expect

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// fairShare checks, after every simulated instant, that each ClusterQueue of
// the cohort that still has pending demand holds at least its fair share of
// the resource, less the tolerance. The fair share is the weighted max-min
// division of the cohort's nominal quota, each ClusterQueue capped at its
// demand (what it holds plus what it waits for): the yardstick the run is
// measured against, not a prediction of Kueue's choices.
func fairShare(run *record.Run, f *scenarios.FairShare) Result {
	res := string(f.Resource)
	var cqs []string
	total := 0.0
	for cq, cohort := range run.Cohorts {
		if cohort != f.Cohort {
			continue
		}
		cqs = append(cqs, cq)
		for _, q := range run.Quotas[cq] {
			total += q[res]
		}
	}
	sort.Strings(cqs)
	if len(cqs) < 2 || total == 0 {
		return Result{Check: "fairShare", Message: fmt.Sprintf("cohort %s has %d ClusterQueues and %g %s of quota: nothing to share", f.Cohort, len(cqs), total, res)}
	}
	holdings := run.Holdings()
	times := instants(run)
	violations, worstGap := 0, 0.0
	var first string
	for _, t := range times {
		use, pend := map[string]float64{}, map[string]float64{}
		for _, h := range holdings {
			if h.From <= t && t < h.To {
				for _, byRes := range h.Usage {
					use[h.Workload.ClusterQueue] += byRes[res]
				}
			}
		}
		for _, w := range run.Workloads {
			if w.Arrived <= t && pendingAt(w, t, holdings) {
				pend[w.ClusterQueue] += w.Requests[res]
			}
		}
		demand := map[string]float64{}
		for _, cq := range cqs {
			demand[cq] = use[cq] + pend[cq]
		}
		fair := waterFill(total, cqs, run.Weights, demand)
		for _, cq := range cqs {
			if pend[cq] == 0 {
				continue
			}
			gap := (fair[cq] - use[cq]) / total
			if gap > f.Tolerance+1e-9 {
				violations++
				if gap > worstGap {
					worstGap = gap
				}
				if first == "" {
					first = fmt.Sprintf("at %s ClusterQueue %s held %g %s with %g pending, fair share %.1f", t, cq, use[cq], res, pend[cq], fair[cq])
				}
			}
		}
	}
	if violations > 0 {
		return Result{Check: "fairShare", Message: fmt.Sprintf(
			"%d (instant, ClusterQueue) pairs below fair share by more than %.0f%% of the cohort's %g %s (worst %.0f%%); first %s",
			violations, 100*f.Tolerance, total, res, 100*worstGap, first)}
	}
	return Result{Check: "fairShare", Passed: true, Message: fmt.Sprintf(
		"every ClusterQueue of cohort %s with pending demand held its fair share of %s within %.0f%% at all %d instants",
		f.Cohort, res, 100*f.Tolerance, len(times))}
}

// pendingAt tells whether w was waiting for admission at t.
func pendingAt(w *record.Workload, t time.Duration, holdings []record.Interval) bool {
	if w.Refused != nil || (w.Finished != nil && w.Finished.T.D() <= t) || (w.Deleted != nil && *w.Deleted <= t) {
		return false
	}
	for _, h := range holdings {
		if h.Workload == w && h.From <= t && t < h.To {
			return false
		}
	}
	return true
}

// instants are the distinct simulated times at which something happened.
func instants(run *record.Run) []time.Duration {
	seen := map[time.Duration]bool{}
	add := func(t time.Duration) { seen[t] = true }
	for _, w := range run.Workloads {
		add(w.Arrived)
		for _, e := range w.Admissions {
			add(e.T.D())
		}
		for _, e := range w.Preemptions {
			add(e.T.D())
		}
		if w.Finished != nil {
			add(w.Finished.T.D())
		}
	}
	out := make([]time.Duration, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// waterFill divides total among the members in proportion to their weights
// (default 1), none getting more than its demand, redistributing what the
// capped ones leave.
func waterFill(total float64, members []string, weights map[string]float64, demand map[string]float64) map[string]float64 {
	out := map[string]float64{}
	active := append([]string(nil), members...)
	left := total
	for len(active) > 0 && left > 1e-12 {
		wsum := 0.0
		for _, m := range active {
			wsum += weight(weights, m)
		}
		if wsum == 0 {
			break
		}
		var next []string
		capped := false
		for _, m := range active {
			share := left * weight(weights, m) / wsum
			if out[m]+share >= demand[m] {
				capped = true
			}
		}
		if !capped {
			for _, m := range active {
				out[m] += left * weight(weights, m) / wsum
			}
			break
		}
		spent := 0.0
		for _, m := range active {
			share := left * weight(weights, m) / wsum
			if out[m]+share >= demand[m] {
				spent += demand[m] - out[m]
				out[m] = demand[m]
			} else {
				next = append(next, m)
			}
		}
		left -= spent
		active = next
	}
	for m := range out {
		out[m] = math.Max(0, out[m])
	}
	return out
}

func weight(weights map[string]float64, m string) float64 {
	if w, ok := weights[m]; ok {
		return w
	}
	return 1
}
