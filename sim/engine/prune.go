package engine

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// WithPruning deletes the objects of finished workloads as the run goes
// (default: on with relaxed pacing, off with strict): kube-apiserver and
// etcd then hold only live work, which bounds their memory on large runs
// (DESIGN.md, memory). The recorder keeps what reports need; the deletions
// are not recorded as events.
func WithPruning(on bool) Option { return func(r *Runner) { r.prune = &on } }

// pruning tells whether finished workloads are deleted.
func (r *Runner) pruning() bool {
	if r.prune != nil {
		return *r.prune
	}
	return r.pacing == Relaxed
}

// notePrune queues a finished workload's object for deletion at the next
// step.
func (r *Runner) notePrune(st *wlState) {
	if !r.pruning() || !st.finished || st.pruned || st.deleted || st.refused {
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
