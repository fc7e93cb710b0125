package engine

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/sim/fakes"
	"github.com/kueue-sim/kueue-sim/sim/kubelet"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// finish is the call that ends a workload's run: by its kind's end
// (kindWithEnd: a long-running workload is deleted, a raw Workload is
// marked Finished), by default its pods succeed (or fail).
func (r *Runner) finish(st *wlState) call {
	if k, ok := kindOf(st.arrival.Stream.Kind).(kindWithEnd); ok {
		return k.end(r, st)
	}
	a := st.arrival
	return call{do: func(ctx context.Context) error { return r.finishPods(ctx, a) }}
}

// longRunning, embedded in a kind, ends its runs by deleting the object:
// Notebooks, InferenceServices and RayClusters run until deleted.
type longRunning struct{}

var _ kindWithEnd = longRunning{}

// end deletes the workload's object.
func (longRunning) end(r *Runner, st *wlState) call {
	c, _ := r.remove(st)
	return c
}

// finishPods ends a's running pods, Succeeded or Failed as its stream says.
func (r *Runner) finishPods(ctx context.Context, a Arrival) error {
	key := a.Team.Namespace + "/" + a.Name
	phase := corev1.PodSucceeded
	if a.Stream.Fail {
		phase = corev1.PodFailed
	}
	parent, err := WorkloadObject(a, r.priorities)
	if err != nil {
		return err
	}
	if err := r.t.Client.Get(ctx, client.ObjectKeyFromObject(parent), parent); err != nil {
		return fmt.Errorf("ending %s: %w", key, err)
	}
	// In the order that ends the parent last (a RayJob's driver, a
	// PyTorchJob's master); the parent's operator may delete the rest.
	pods, err := fakes.PodsOf(ctx, r.t.Client, parent)
	if err != nil {
		return fmt.Errorf("ending %s: %w", key, err)
	}
	for _, p := range pods {
		if p.Status.Phase != corev1.PodRunning {
			continue
		}
		err := r.t.FinishPod(ctx, client.ObjectKeyFromObject(&p), phase)
		if err != nil && !apierrors.IsNotFound(err) && !errors.Is(err, kubelet.ErrNotRunning) {
			return fmt.Errorf("ending %s: %w", key, err)
		}
	}
	return nil
}

// remove is the call that deletes a workload's object; false when there is
// nothing to delete.
func (r *Runner) remove(st *wlState) (call, bool) {
	if st.deleted || st.refused {
		return call{}, false
	}
	obj, err := WorkloadObject(st.arrival, r.priorities)
	if err != nil {
		return call{do: func(context.Context) error { return err }}, true
	}
	// Marked at once: a finish and a deletion due at the same instant
	// delete once.
	st.deleted = true
	r.obs.touch(st)
	r.obs.emit(st, record.Event{Type: record.TypeDeleted})
	return call{do: func(ctx context.Context) error {
		if err := r.t.Client.Delete(ctx, obj, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("deleting %s: %w", st.key, err)
		}
		return nil
	}}, true
}
