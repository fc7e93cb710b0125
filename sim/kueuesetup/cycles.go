package kueuesetup

import (
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
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
	return CyclesByResult(mfs), nil
}

// CyclesByResult sums kueue_admission_attempts_total by its result label
// over gathered metric families (Kueue's harness scrapes them too: see
// bench).
func CyclesByResult(mfs []*dto.MetricFamily) map[string]float64 {
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != admissionAttempts {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" {
					out[l.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	return out
}

// admissionAttempts is the name of Kueue's count of scheduling cycles.
const admissionAttempts = "kueue_admission_attempts_total"

// TotalCycles is the in-process Kueue's count of finished scheduling
// cycles so far, whatever their result: Kueue counts a cycle once it has
// processed every head it took.
func TotalCycles() (float64, error) {
	by, err := SchedulingCycles()
	if err != nil {
		return 0, err
	}
	total := 0.0
	for _, n := range by {
		total += n
	}
	return total, nil
}
