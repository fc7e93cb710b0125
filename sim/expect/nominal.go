package expect

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/metrics"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// nominalGuarantee checks that every ClusterQueue named (one, or each of a
// cohort's, its sub-cohorts' included) with a waiting workload that fit
// in its unused nominal quota got back to its nominal quota, or had no
// such workload left, within the allowed simulated time: read from the
// log's admissions, never predicted. A shortfall the run's end cut short
// of the allowed time is not judged.
func nominalGuarantee(run *record.Run, tl *metrics.Timeline, n *scenarios.NominalGuarantee) Result {
	const check = "nominalGuarantee"
	cqs := map[string]bool{}
	what := "ClusterQueue " + n.ClusterQueue
	if n.ClusterQueue != "" {
		cqs[n.ClusterQueue] = true
	} else {
		what = "the ClusterQueues of cohort " + n.Cohort
		for cq := range run.Quotas {
			if inCohort(run, n.Cohort, cq) {
				cqs[cq] = true
			}
		}
	}
	if len(cqs) == 0 {
		return Result{Check: check, Message: fmt.Sprintf("no ClusterQueue of cohort %s in the log: nothing to check", n.Cohort)}
	}
	within := n.Within.Duration
	var bad []string
	count, cut := 0, 0
	longest := time.Duration(0)
	for _, s := range metrics.NominalShortfalls(run, tl) {
		if !cqs[s.ClusterQueue] {
			continue
		}
		count++
		longest = max(longest, s.Duration())
		switch {
		case s.Duration() <= within:
		case s.Open:
			bad = append(bad, describeShortfall(s, within, "the end of the run, still short"))
		default:
			bad = append(bad, describeShortfall(s, within, s.To.String()))
		}
		if s.Open && s.Duration() <= within {
			cut++
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		return Result{Check: check, Message: fmt.Sprintf("%d of %d shortfalls of nominal quota in %s lasted longer than %s: %s", len(bad), count, what, within, list(bad))}
	}
	msg := fmt.Sprintf("%s got back to nominal quota within %s every time (%d shortfalls, longest %s)", what, within, count, longest)
	if count == 0 {
		msg = fmt.Sprintf("%s never had a waiting workload that fit in its unused nominal quota", what)
	}
	if cut > 0 {
		msg += fmt.Sprintf("; %d cut short by the end of the run", cut)
	}
	return Result{Check: check, Passed: true, Message: msg}
}

// describeShortfall says who waited, from when to when, and how much of
// its nominal quota the ClusterQueue held.
func describeShortfall(s metrics.Shortfall, within time.Duration, until string) string {
	w := s.Waiting[0]
	var quota []string
	for _, res := range sortedResources(w.Requests) {
		quota = append(quota, fmt.Sprintf("%s of its %s %s", amount(res, s.Used[res]), amount(res, s.Nominal[res]), res))
	}
	others := ""
	if len(s.Waiting) > 1 {
		others = fmt.Sprintf(" and %d more that fit", len(s.Waiting)-1)
	}
	return fmt.Sprintf("ClusterQueue %s had %s (%s) waiting%s from %s to %s (%s, more than %s) while it held %s of nominal quota",
		s.ClusterQueue, w.Name, requestText(w.Requests), others, s.From, until, s.Duration(), within, strings.Join(quota, ", "))
}

func requestText(req map[string]float64) string {
	var parts []string
	for _, res := range sortedResources(req) {
		parts = append(parts, fmt.Sprintf("%s %s", amount(res, req[res]), res))
	}
	return strings.Join(parts, ", ")
}

// amount formats a resource amount: memory in GiB.
func amount(res string, v float64) string {
	if res == "memory" || res == "ephemeral-storage" {
		return fmt.Sprintf("%gGi", v/(1<<30))
	}
	return fmt.Sprintf("%g", v)
}

func sortedResources(m map[string]float64) []string {
	var out []string
	for k, v := range m {
		if v > 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// inCohort tells whether cq is in cohort or one of its sub-cohorts.
func inCohort(run *record.Run, cohort, cq string) bool {
	c := run.Cohorts[cq]
	for range len(run.CohortParents) + 2 {
		if c == "" {
			return false
		}
		if c == cohort {
			return true
		}
		c = run.CohortParents[c]
	}
	return false
}
