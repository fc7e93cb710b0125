package kube

import (
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// remainingOptions say whether running workloads run on for a remaining
// time (a forecast from a live cluster) or for ever (an import of a
// cluster's history, whose replay ends at the import's instant).
type remainingOptions struct {
	on bool
	// fallback is the remaining time of a workload without history;
	// default DefaultDuration.
	fallback time.Duration
	// history replays the workloads that finished before Now too, rather
	// than starting from the present (present.go).
	history bool
}

func (o remainingOptions) fallbackOrDefault() time.Duration {
	if o.fallback > 0 {
		return o.fallback
	}
	return DefaultDuration
}

// remainingDraws are what the runs longer than elapsed among finished had
// left at elapsed: the run times of alike workloads conditioned on the
// time already run, which a forecast draws a running workload's remaining
// time from (at most maxDraws of them, spread over their range, each at
// least a second). It is empty when no finished run was longer.
func remainingDraws(finished []time.Duration, elapsed time.Duration) []time.Duration {
	var left []time.Duration
	for _, d := range finished {
		if d > elapsed {
			left = append(left, max(d-elapsed, time.Second))
		}
	}
	if len(left) == 0 {
		return nil
	}
	return spread(left)
}

// maxDraws bounds the run times a drawn duration lists, so that a long
// history keeps the scenario small: more than that adds nothing a
// forecast of twenty runs can tell apart.
const maxDraws = 100

// spread is ds sorted and rounded to the second; more than maxDraws are
// thinned to maxDraws evenly spaced order statistics.
func spread(ds []time.Duration) []time.Duration {
	s := make([]time.Duration, len(ds))
	for i, d := range ds {
		s[i] = max(d.Round(time.Second), time.Second)
	}
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) <= maxDraws {
		return s
	}
	out := make([]time.Duration, maxDraws)
	for i := range out {
		out[i] = s[i*(len(s)-1)/(maxDraws-1)]
	}
	return out
}

// drawFrom is the duration of a stream whose workloads run for one of ds:
// fixed when they are all one value.
func drawFrom(ds []time.Duration) *scenarios.Distribution {
	same := true
	for _, d := range ds[1:] {
		same = same && d == ds[0]
	}
	if same {
		return &scenarios.Distribution{Fixed: &metav1.Duration{Duration: ds[0]}}
	}
	out := make([]metav1.Duration, len(ds))
	for i, d := range ds {
		out[i] = metav1.Duration{Duration: d}
	}
	return &scenarios.Distribution{Empirical: out}
}
