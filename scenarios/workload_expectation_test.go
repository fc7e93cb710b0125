package scenarios

import (
	"testing"
	"time"
)

// TestWorkloadExpectationsLoad loads workload expectations as a
// translation of one of Kueue's integration tests writes them.
func TestWorkloadExpectationsLoad(t *testing.T) {
	s, err := LoadFile("testdata/workload-expectations.yaml")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*WorkloadExpectation{}
	for _, e := range s.Expectations {
		if e.Workload == nil {
			t.Fatalf("expectation %s has no workload check", e.Name)
		}
		byName[e.Name] = e.Workload
	}
	low := byName["low-reclaimed-while-borrowing"]
	if low.Name() != "low-0" || low.Preempted.Reason != "InCohortReclaimWhileBorrowing" || *low.Preempted.Count != 1 ||
		*low.Admissions != 2 || low.AdmittedAt.Duration != time.Minute || low.AdmittedOn["cpu"] != "fallback" {
		t.Errorf("low-reclaimed-while-borrowing decoded as %+v", low)
	}
	if first := byName["low-first-on-one"]; *first.Admission != 1 || first.ClusterQueue != "best-effort" || first.AdmittedBy.Duration != 0 {
		t.Errorf("low-first-on-one decoded as %+v", first)
	}
	if b := byName["last-batch-never-evicted"]; b.Name() != "batch-2" || *b.Evicted.Count != 0 || !*b.Admitted {
		t.Errorf("last-batch-never-evicted decoded as %+v", b)
	}
}

func TestArrivalName(t *testing.T) {
	if got := ArrivalName("low", 12); got != "low-12" {
		t.Errorf("ArrivalName = %s, want low-12", got)
	}
}

func TestReasonMatches(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		match     bool
	}{
		{"", "InClusterQueue", true},
		{"InClusterQueue", "InClusterQueue", true},
		{"InClusterQueue", "InCohortReclamation", false},
		{"Deactivated", "Deactivated", true},
		{"Deactivated", "DeactivatedDueToRequeuingLimitExceeded", true},
		{"DeactivatedDueToRequeuingLimitExceeded", "Deactivated", false},
		{"PodsReadyTimeout", "PodsReadyTimeoutX", false},
	} {
		if got := ReasonMatches(tc.want, tc.got); got != tc.match {
			t.Errorf("ReasonMatches(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.match)
		}
	}
}

// The reasons a scenario may name are Kueue's own, as its API spells them.
func TestReasonsAreKueues(t *testing.T) {
	for _, r := range []string{"InClusterQueue", "InCohortReclamation", "InCohortFairSharing", "InCohortReclaimWhileBorrowing"} {
		if !contains(PreemptionReasons, r) {
			t.Errorf("PreemptionReasons lack %s", r)
		}
	}
	for _, r := range []string{"PodsReadyTimeout", "ClusterQueueStopped", "LocalQueueStopped", "Deactivated", "DeactivatedDueToRequeuingLimitExceeded", "DeactivatedDueToMaximumExecutionTimeExceeded"} {
		if !contains(EvictionReasons, r) {
			t.Errorf("EvictionReasons lack %s", r)
		}
	}
	if contains(EvictionReasons, "Preempted") {
		t.Error("EvictionReasons hold Preempted: kueue-sim records preemptions apart")
	}
}
