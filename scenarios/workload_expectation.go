package scenarios

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WorkloadExpectation names one workload of the run and what must hold of
// it, as Kueue's integration tests assert of a Workload: every check set
// holds, and at least one is set. Times are simulated times, each read
// once its instant has settled.
type WorkloadExpectation struct {
	// Stream is the workload's stream.
	Stream string `json:"stream"`
	// Index is the workload's place in its stream, 0 first (its name is
	// <stream>-<index>); required when the stream has more than one
	// workload.
	Index *int32 `json:"index,omitempty"`

	// Admission picks the Nth admission (1 the first) that AdmittedOn,
	// ClusterQueue and AdmittedBy read. Unset, AdmittedOn and ClusterQueue
	// read the admission held at AdmittedAt when it is set, the latest
	// otherwise; AdmittedBy reads the first.
	Admission *int32 `json:"admission,omitempty"`
	// AdmittedOn is the flavor Kueue assigned to each resource named (the
	// others are not checked).
	AdmittedOn map[corev1.ResourceName]string `json:"admittedOn,omitempty"`
	// ClusterQueue is the ClusterQueue that admitted it.
	ClusterQueue string `json:"clusterQueue,omitempty"`
	// Admitted: true, Kueue admitted it at least once; false, never.
	Admitted *bool `json:"admitted,omitempty"`
	// AdmittedBy: it was admitted at or before this time.
	AdmittedBy *metav1.Duration `json:"admittedBy,omitempty"`
	// AdmittedAt: it held an admission at this time.
	AdmittedAt *metav1.Duration `json:"admittedAt,omitempty"`
	// PendingAt: at this time it had arrived and was waiting — not
	// refused, holding no admission, neither finished nor deleted.
	PendingAt *metav1.Duration `json:"pendingAt,omitempty"`
	// Admissions is how many times Kueue admitted it.
	Admissions *int32 `json:"admissions,omitempty"`
	// Preempted: Kueue preempted it (the Preempted condition), for this
	// reason if given; Count, when given, is the exact number of times,
	// otherwise at least once.
	Preempted *ReasonCount `json:"preempted,omitempty"`
	// Evicted: Kueue evicted it for a reason other than preemption (the
	// Evicted condition), as Preempted counts.
	Evicted *ReasonCount `json:"evicted,omitempty"`
	// Finished: true, it finished (Succeeded or Failed) within the run;
	// false, it had not when the run ended.
	Finished *bool `json:"finished,omitempty"`
}

// ReasonCount counts a workload's preemptions or evictions, of one reason
// or of any.
type ReasonCount struct {
	// Reason is Kueue's condition reason; default: any.
	Reason string `json:"reason,omitempty"`
	// Count is the exact number; default: at least one.
	Count *int32 `json:"count,omitempty"`
}

// ArrivalName is the object name of a stream's workload: <stream>-<index>,
// as the engine names its arrivals (sim/engine/plan.go).
func ArrivalName(stream string, index int32) string {
	return fmt.Sprintf("%s-%d", stream, index)
}

// Name is the object name of the workload the expectation names.
func (w *WorkloadExpectation) Name() string {
	var i int32
	if w.Index != nil {
		i = *w.Index
	}
	return ArrivalName(w.Stream, i)
}
