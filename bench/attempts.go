package bench

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	kueuemetrics "sigs.k8s.io/kueue/pkg/metrics"
)

// kueueCycles reads the in-process Kueue's count of scheduling cycles so
// far by result ("success", "inadmissible"): its own
// kueue_admission_attempts_total. A run's cycles per workload show how
// often Kueue tried its backlog again, which is where a large replay's
// time goes (see bench/README.md, session 10).
func kueueCycles() (map[string]float64, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(kueuemetrics.AdmissionAttemptsTotal); err != nil {
		return nil, fmt.Errorf("reading Kueue's admission attempts: %w", err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		return nil, fmt.Errorf("reading Kueue's admission attempts: %w", err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" {
					out[l.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	return out, nil
}

// cyclesSince is after minus before, result by result.
func cyclesSince(before, after map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}
