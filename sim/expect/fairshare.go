package expect

import (
	"fmt"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/metrics"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// roundingSlack forgives one unit of Kueue's rounding: Kueue rounds every
// weighted share up to an integer, so two members whose exact shares are
// equal can be published one apart.
const roundingSlack = 1

// fairShare checks Kueue's own promise with Kueue's own numbers: at no
// instant did a member of the cohort with workloads waiting hold a
// weighted share (status.fairSharing.weightedShare, as observed) lower
// than another member's by more than the tolerance. Kueue admits from the
// lowest share and, with its fair-sharing preemption strategies, preempts
// from a higher one until moving one more workload would leave the
// preemptor above the preemptee (LessThanOrEqualToFinalShare): a balanced
// cohort's gaps stay under about one waiting plus one running workload's
// share, which the tolerance must cover. Instants at which a member's
// published share disagreed with the log's admissions (Kueue had not
// updated its status yet) judge only the other members.
func fairShare(run *record.Run, tl *metrics.Timeline, f *scenarios.FairShare) Result {
	const check = "fairShare"
	members := metrics.CohortMembers(run, f.Cohort)
	if len(members) < 2 {
		return Result{Check: check, Message: fmt.Sprintf("cohort %s has %d members: nothing to share", f.Cohort, len(members))}
	}
	allowed := f.Tolerance*metrics.ShareUnit + roundingSlack
	var (
		observed          bool
		waiting, unjudged float64 // seconds
		violating         float64
		spans             int
		first, worst      string
		worstGap, maxGap  float64
		maxAt             time.Duration
		lastBad           bool
	)
	metrics.SweepCohort(run, tl, f.Cohort, string(f.Resource), func(in metrics.ShareInstant) {
		for _, m := range in.Members {
			observed = observed || m.Observed
		}
		if !in.Waiting() {
			lastBad = false
			return
		}
		dt := in.Seconds()
		waiting += dt
		if !in.FullyJudged() {
			unjudged += dt
		}
		gaps := in.Gaps()
		if len(gaps) == 0 {
			lastBad = false
			return
		}
		g := gaps[0]
		if g.Size > maxGap {
			maxGap, maxAt = g.Size, in.From
		}
		if g.Size <= allowed {
			lastBad = false
			return
		}
		violating += dt
		if !lastBad {
			spans++
		}
		lastBad = true
		if first == "" {
			first = describeGap(in, g, allowed, f)
		}
		if g.Size > worstGap {
			worstGap, worst = g.Size, fmt.Sprintf("%s at %s", gapNumber(g.Size), in.From)
		}
	})
	if !observed {
		why := "Kueue publishes them only with fair sharing on (cluster.kueue.fairSharing), and logs recorded before kueue-sim observed them have none"
		if run.FairSharing {
			why = "fair sharing was on, yet no Share event was recorded for them"
		}
		return Result{Check: check, Message: fmt.Sprintf("the log holds no weighted share of cohort %s's members: %s", f.Cohort, why)}
	}
	scope := "workloads waiting"
	if f.Resource != "" {
		scope = "workloads requesting " + string(f.Resource) + " waiting"
	}
	note := ""
	if unjudged > 0 {
		note = fmt.Sprintf("; for %s a member's published share disagreed with the log's admissions (Kueue had not updated it yet) and was left out", seconds(unjudged))
	}
	if spans > 0 {
		return Result{Check: check, Message: fmt.Sprintf("%s; %d such span(s), %s in all, worst gap %s%s", first, spans, seconds(violating), worst, note)}
	}
	largest := "no member trailed another"
	if maxGap > 0 {
		largest = fmt.Sprintf("largest gap %s at %s", gapNumber(maxGap), maxAt)
	}
	return Result{Check: check, Passed: true, Message: fmt.Sprintf(
		"over %s with %s in cohort %s, no member trailed another's weighted share by more than %s (tolerance %g of the lendable quota, plus %d for Kueue's rounding); %s%s",
		seconds(waiting), scope, f.Cohort, gapNumber(allowed-roundingSlack), f.Tolerance, roundingSlack, largest, note)}
}

// describeGap says in plain words which member trailed which at an
// instant, naming the waiting workloads.
func describeGap(in metrics.ShareInstant, g metrics.Gap, allowed float64, f *scenarios.FairShare) string {
	lo, hi := in.Members[g.Low], in.Members[g.High]
	var names []string
	for _, w := range in.WaitingWorkloads(g.Low) {
		names = append(names, w.Name)
	}
	return fmt.Sprintf("at %s %s %s (weight %g) had %d workload(s) waiting (%s) at weighted share %s while %s %s (weight %g) held %s: %s apart, more than tolerance %g allows (%s, plus %d for Kueue's rounding; 1000 = the cohort's lendable quota at weight 1, as Kueue publishes status.fairSharing.weightedShare)",
		in.From, lo.Kind, lo.Name, lo.Weight, lo.Waiting, list(names), gapNumber(float64(lo.Share)),
		hi.Kind, hi.Name, hi.Weight, gapNumber(float64(hi.Share)), gapNumber(g.Size), f.Tolerance, gapNumber(allowed-roundingSlack), roundingSlack)
}

// gapNumber formats a weighted share or gap.
func gapNumber(v float64) string {
	if v >= 9.2e18 {
		return "the maximum (a zero weight that borrows)"
	}
	return fmt.Sprintf("%g", v)
}
