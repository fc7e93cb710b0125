package kube

import "time"

// remainingOptions say whether running workloads run on for a remaining
// time (a forecast from a live cluster) or for ever (an import of a
// cluster's history, whose replay ends at the import's instant).
type remainingOptions struct {
	on bool
	// fallback is the remaining time of a workload without history;
	// default DefaultDuration.
	fallback time.Duration
}

func (o remainingOptions) fallbackOrDefault() time.Duration {
	if o.fallback > 0 {
		return o.fallback
	}
	return DefaultDuration
}

// remaining is how much longer a workload that has run for elapsed runs,
// going by the runs of alike workloads that finished: the median of what
// the runs longer than elapsed had left at elapsed (the durations
// conditioned on the time already run). It is false when no finished run
// was longer.
func remaining(finished []time.Duration, elapsed time.Duration) (time.Duration, bool) {
	var left []time.Duration
	for _, d := range finished {
		if d > elapsed {
			left = append(left, d-elapsed)
		}
	}
	if len(left) == 0 {
		return 0, false
	}
	return max(median(left), time.Second), true
}
