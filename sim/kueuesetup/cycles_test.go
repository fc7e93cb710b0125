package kueuesetup

import (
	"testing"

	"sigs.k8s.io/kueue/pkg/metrics"
)

// TestSchedulingCycles: SchedulingCycles reads Kueue's own
// kueue_admission_attempts_total by result (the counter is process-wide:
// only differences count).
func TestSchedulingCycles(t *testing.T) {
	before, err := SchedulingCycles()
	if err != nil {
		t.Fatal(err)
	}
	metrics.AdmissionAttemptsTotal.WithLabelValues(string(metrics.AdmissionResultInadmissible), "leader").Add(2)
	after, err := SchedulingCycles()
	if err != nil {
		t.Fatal(err)
	}
	res := string(metrics.AdmissionResultInadmissible)
	if d := after[res] - before[res]; d != 2 {
		t.Errorf("inadmissible cycles went up by %v, want 2 (before %v, after %v)", d, before, after)
	}
}
