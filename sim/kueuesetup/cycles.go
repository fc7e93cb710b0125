package kueuesetup

import (
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/kueue/pkg/metrics"
)

var (
	cyclesOnce sync.Once
	cyclesReg  *prometheus.Registry
)

// SchedulingCycles reads the in-process Kueue's count of scheduling cycles
// so far, by result ("success", "inadmissible"): its own
// kueue_admission_attempts_total. The counter is process-wide; callers use
// differences.
func SchedulingCycles() (map[string]float64, error) {
	cyclesOnce.Do(func() {
		cyclesReg = prometheus.NewRegistry()
		cyclesReg.MustRegister(metrics.AdmissionAttemptsTotal)
	})
	mfs, err := cyclesReg.Gather()
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
