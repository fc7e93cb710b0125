package engine

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// WithPruning deletes the objects of finished workloads as the run goes
// (default off; sim run --prune-finished): kube-apiserver and
// etcd then hold only live work, which bounds their memory on large runs
// (DESIGN.md, memory). The recorder keeps what reports need; the deletions
// are not recorded as events. Kueue sees them: the update that marks a
// finished Workload for deletion makes it requeue the ClusterQueue's
// inadmissible workloads (workload_controller.go, Update), so decisions
// may differ from an unpruned run's, reproducibly.
func WithPruning(on bool) Option { return func(r *Runner) { r.prune = on } }

// notePrune queues a finished workload's object for deletion at the next
// step.
func (r *Runner) notePrune(st *wlState) {
	if !r.prune || !st.finished || st.pruned || st.deleted || st.refused {
		return
	}
	st.pruned = true
	r.toPrune = append(r.toPrune, st)
}

// takePrunes returns the deletions queued since the last step.
func (r *Runner) takePrunes() []call {
	out := make([]call, 0, len(r.toPrune))
	for _, st := range r.toPrune {
		out = append(out, call{do: func(ctx context.Context) error {
			obj, err := WorkloadObject(st.arrival, r.priorities)
			if err != nil {
				return err
			}
			if err := r.t.Client.Delete(ctx, obj, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
				return fmt.Errorf("deleting finished %s: %w", st.key, err)
			}
			return nil
		}})
	}
	r.toPrune = nil
	return out
}
