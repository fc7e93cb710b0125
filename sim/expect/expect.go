package expect

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/metrics"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Result is one expectation's outcome.
type Result struct {
	Name    string `json:"name"`
	Check   string `json:"check"`
	Passed  bool   `json:"passed"`
	Message string `json:"message"`
}

// maxListed bounds how many offending workloads a message names.
const maxListed = 5

// Evaluate checks every expectation of s on run. The numbers are package
// metrics', the ones the reports show.
func Evaluate(s *scenarios.Scenario, run *record.Run) []Result {
	out := make([]Result, 0, len(s.Expectations))
	var tl *metrics.Timeline
	timeline := func() *metrics.Timeline {
		if tl == nil {
			tl = metrics.NewTimeline(run)
		}
		return tl
	}
	for _, e := range s.Expectations {
		var r Result
		switch {
		case e.NoEviction != nil:
			r = noEviction(run, e.NoEviction)
		case e.PlacementMatchesFlavor != nil:
			r = placement(run)
		case e.FairShare != nil:
			r = fairShare(run, timeline(), e.FairShare)
		case e.NominalGuarantee != nil:
			r = nominalGuarantee(run, timeline(), e.NominalGuarantee)
		case e.QueueWait != nil:
			r = queueWait(run, e.QueueWait)
		case e.Utilization != nil:
			r = utilization(run, timeline(), e.Utilization)
		case e.Counts != nil:
			r = counts(run, e.Counts)
		case e.Workload != nil:
			r = workload(run, e.Workload)
		case e.PendingCounts != nil:
			r = pendingCounts(run, e.PendingCounts)
		}
		r.Name = e.Name
		out = append(out, r)
	}
	return out
}

func noEviction(run *record.Run, c *scenarios.NoEviction) Result {
	kinds := map[string]bool{}
	for _, k := range c.Kinds {
		kinds[string(k)] = true
	}
	var bad []string
	checked := 0
	for _, w := range run.Workloads {
		if len(kinds) > 0 && !kinds[w.Kind] {
			continue
		}
		checked++
		for _, e := range append(append([]record.Event{}, w.Preemptions...), w.Evictions...) {
			bad = append(bad, fmt.Sprintf("%s %s %s at %s (%s)", w.Kind, w.Name, strings.ToLower(e.Type), e.T.D(), e.Reason))
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		return Result{Check: "noEviction", Message: fmt.Sprintf("%d evictions: %s", len(bad), list(bad))}
	}
	return Result{Check: "noEviction", Passed: true, Message: fmt.Sprintf("none of %d workloads evicted", checked)}
}

func placement(run *record.Run) Result {
	var bad []string
	n := 0
	for _, w := range run.Workloads {
		for _, p := range w.Placements {
			if p.FlavorMatch == nil {
				continue
			}
			n++
			if !*p.FlavorMatch {
				bad = append(bad, fmt.Sprintf("pod %s of %s on node %s (pool %s): %s", p.Pod, w.Name, p.Node, p.Pool, p.Message))
			}
		}
	}
	if len(bad) > 0 {
		return Result{Check: "placementMatchesFlavor", Message: fmt.Sprintf("%d of %d pods off their flavor's nodes: %s", len(bad), n, list(bad))}
	}
	if n == 0 {
		return Result{Check: "placementMatchesFlavor", Message: "no pod was placed: nothing to check (a run that places no pods cannot show placement is right)"}
	}
	return Result{Check: "placementMatchesFlavor", Passed: true, Message: fmt.Sprintf("all %d pods on nodes of their flavor", n)}
}

func queueWait(run *record.Run, q *scenarios.QueueWait) Result {
	var waits []metrics.Wait
	for _, w := range metrics.Waits(run) {
		if (q.Team == "" || w.Team == q.Team) && (q.Stream == "" || w.Stream == q.Stream) {
			waits = append(waits, w)
		}
	}
	if len(waits) == 0 {
		return Result{Check: "queueWait", Message: "no workload matched: nothing to check"}
	}
	sort.SliceStable(waits, func(a, b int) bool { return waits[a].Seconds < waits[b].Seconds })
	sorted := make([]float64, len(waits))
	for i, w := range waits {
		sorted[i] = w.Seconds
	}
	got := seconds(metrics.Quantile(q.Percentile/100, sorted))
	msg := fmt.Sprintf("p%g queue wait %s over %d workloads (max allowed %s)", q.Percentile, got, len(waits), q.Max.Duration)
	if got > q.Max.Duration {
		var worst []string
		for i := len(waits) - 1; i >= 0 && len(worst) < maxListed; i-- {
			worst = append(worst, fmt.Sprintf("%s waited %s", waits[i].Workload, seconds(waits[i].Seconds)))
		}
		return Result{Check: "queueWait", Message: msg + "; longest: " + strings.Join(worst, ", ")}
	}
	return Result{Check: "queueWait", Passed: true, Message: msg}
}

func utilization(run *record.Run, tl *metrics.Timeline, u *scenarios.Utilization) Result {
	var f *metrics.FlavorUsage
	for _, x := range metrics.FlavorUsages(run, tl) {
		if x.Flavor == u.Flavor && x.Resource == string(u.Resource) {
			f = &x
		}
	}
	if f == nil || f.Capacity == 0 || run.End == 0 {
		return Result{Check: "utilization", Message: fmt.Sprintf("flavor %s has no %s capacity or the run lasted no time", u.Flavor, u.Resource)}
	}
	msg := fmt.Sprintf("%s of flavor %s %.1f%% used over %s (%.1f of %.0f %s-hours; min %.1f%%)",
		u.Resource, u.Flavor, 100*f.Utilization, run.End, f.UsedHours, f.AvailableHours, u.Resource, 100*u.Min)
	return Result{Check: "utilization", Passed: f.Utilization >= u.Min, Message: msg}
}

// seconds is a duration of simulated seconds.
// seconds is a span summed in float seconds, to the millisecond: simulated
// times are whole milliseconds, and a sum's float residue
// (1h57m31.589999999s) is none of the run's.
func seconds(s float64) time.Duration {
	return time.Duration(math.Round(s*1e3)) * time.Millisecond
}

func counts(run *record.Run, c *scenarios.Counts) Result {
	var admitted, refused, preempted, finished int32
	total := 0
	for _, w := range run.Workloads {
		if w.Stream != c.Stream {
			continue
		}
		total++
		if w.Admitted() {
			admitted++
		}
		if w.Refused != nil {
			refused++
		}
		if len(w.Preemptions) > 0 {
			preempted++
		}
		if w.Finished != nil {
			finished++
		}
	}
	var bad []string
	check := func(name string, want *int32, got int32) {
		if want != nil && *want != got {
			bad = append(bad, fmt.Sprintf("%s %d, want %d", name, got, *want))
		}
	}
	check("admitted", c.Admitted, admitted)
	check("refused", c.Refused, refused)
	check("preempted", c.Preempted, preempted)
	check("finished", c.Finished, finished)
	summary := fmt.Sprintf("stream %s: %d workloads, %d admitted, %d refused, %d preempted, %d finished",
		c.Stream, total, admitted, refused, preempted, finished)
	if len(bad) > 0 {
		return Result{Check: "counts", Message: summary + ": " + strings.Join(bad, "; ")}
	}
	return Result{Check: "counts", Passed: true, Message: summary}
}

func list(items []string) string { return listSep(items, "; ") }

// listSep joins the first maxListed items with sep and counts the rest.
func listSep(items []string, sep string) string {
	if len(items) <= maxListed {
		return strings.Join(items, sep)
	}
	return strings.Join(items[:maxListed], sep) + fmt.Sprintf("%sand %d more", sep, len(items)-maxListed)
}
