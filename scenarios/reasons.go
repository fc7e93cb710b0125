package scenarios

import (
	"strings"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// PreemptionReasons are the reasons of Kueue's Preempted condition.
var PreemptionReasons = []string{
	kueue.InClusterQueueReason,
	kueue.InCohortReclamationReason,
	kueue.InCohortFairSharingReason,
	kueue.InCohortReclaimWhileBorrowingReason,
}

// EvictionReasons are the reasons of Kueue's Evicted condition but
// Preempted (kueue-sim records preemptions apart, with the Preempted
// condition's reason). Kueue writes a deactivation with a cause as
// Deactivated + "DueTo" + cause.
var EvictionReasons = []string{
	kueue.WorkloadEvictedByPodsReadyTimeout,
	kueue.WorkloadEvictedByAdmissionCheck,
	kueue.WorkloadEvictedByClusterQueueStopped,
	kueue.WorkloadEvictedByLocalQueueStopped,
	kueue.WorkloadEvictedDueToNodeFailures,
	kueue.WorkloadDeactivated,
	deactivatedDueTo(kueue.WorkloadRequeuingLimitExceeded),
	deactivatedDueTo(kueue.WorkloadMaximumExecutionTimeExceeded),
	deactivatedDueTo(kueue.WorkloadEvictedOnManagerCluster),
}

// deactivatedDueTo is Kueue's eviction reason for a deactivation with a
// cause (workload.ReasonWithCause).
func deactivatedDueTo(cause string) string {
	return kueue.WorkloadDeactivated + "DueTo" + cause
}

// ReasonMatches tells whether a recorded reason is the one an expectation
// wants: any for "", and every deactivation for Deactivated, whatever its
// cause (as Kueue's IsEvictedByDeactivation reads it).
func ReasonMatches(want, got string) bool {
	switch {
	case want == "" || want == got:
		return true
	case want == kueue.WorkloadDeactivated:
		return strings.HasPrefix(got, deactivatedDueTo(""))
	}
	return false
}
