package engine

import (
	"context"
	"fmt"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// rawWorkloadKind is a raw Kueue Workload, for large runs: no job and no
// pods. It runs while Kueue admits it; its run ends by the engine marking
// it Finished, and the engine completes its evictions, as Kueue's own
// scheduler-performance runner does.
type rawWorkloadKind struct{}

var (
	_ workloadKind     = rawWorkloadKind{}
	_ kindWithEnd      = rawWorkloadKind{}
	_ kindWithRunning  = rawWorkloadKind{}
	_ kindWithEviction = rawWorkloadKind{}
	_ kindWithoutPods  = rawWorkloadKind{}
)

func (rawWorkloadKind) withoutPods() {}

func (rawWorkloadKind) object(o objectSpec) (client.Object, error) {
	t := o.template("main")
	t.Spec.SchedulingGates = nil // no pods to hold
	wl := &kueue.Workload{ObjectMeta: o.meta, Spec: kueue.WorkloadSpec{
		QueueName: kueue.LocalQueueName(o.stream.Queue),
		PodSets:   []kueue.PodSet{{Name: kueue.DefaultPodSetName, Count: o.replicas, Template: t}},
	}}
	if pc := o.stream.PriorityClass; pc != "" {
		wl.Spec.PriorityClassRef = kueue.NewWorkloadPriorityClassRef(pc)
		wl.Spec.Priority = ptr.To(o.priorities[pc])
	}
	return wl, nil
}

// fromTemplate: the pod sets' templates carry the arrival's labels (no
// pods to hold: no gate); the stream's queue and priority class, where it
// names them, replace the template's.
func (rawWorkloadKind) fromTemplate(o objectSpec, obj client.Object) (client.Object, error) {
	wl, ok := obj.(*kueue.Workload)
	if !ok {
		return nil, notOfKind(obj, "kueue.x-k8s.io Workload")
	}
	o.stamp(wl)
	for i := range wl.Spec.PodSets {
		t := &wl.Spec.PodSets[i].Template
		t.Labels = withEntries(t.Labels, o.podLabels())
	}
	if q := o.stream.Queue; q != "" {
		wl.Spec.QueueName = kueue.LocalQueueName(q)
	}
	if pc := o.stream.PriorityClass; pc != "" {
		wl.Spec.PriorityClassRef = kueue.NewWorkloadPriorityClassRef(pc)
		wl.Spec.Priority = ptr.To(o.priorities[pc])
	}
	return wl, nil
}

// end marks the Workload Finished.
func (rawWorkloadKind) end(r *Runner, st *wlState) call {
	a := st.arrival
	return call{do: func(ctx context.Context) error { return r.finishWorkload(ctx, a) }}
}

// running: a raw Workload has no pods; it runs while admitted.
func (rawWorkloadKind) running(st *wlState) bool {
	return st.admitted
}

// evictionPending: no job integration releases the quota of an evicted raw
// Workload; the engine does.
func (rawWorkloadKind) evictionPending(wl *kueue.Workload) bool {
	return needsEvictionDone(wl)
}

// finishWorkload marks a's raw Workload Finished, Succeeded or Failed as
// its stream says.
func (r *Runner) finishWorkload(ctx context.Context, a Arrival) error {
	key := client.ObjectKey{Namespace: a.Team.Namespace, Name: a.Name}
	reason, msg := kueue.WorkloadFinishedReasonSucceeded, "kueue-sim: the simulated run ended"
	if a.Stream.Fail {
		reason = kueue.WorkloadFinishedReasonFailed
	}
	// Kueue writes the same status (e.g. its admission metadata): retry on
	// conflict with the latest object.
	err := updateWorkloadStatus(ctx, r.t.Cache, r.t.Client, key, func(wl *kueue.Workload) bool {
		apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{
			Type: kueue.WorkloadFinished, Status: metav1.ConditionTrue, Reason: reason, Message: msg,
			LastTransitionTime: metav1.NewTime(r.clock.Now()),
		})
		return true
	})
	if err != nil {
		return fmt.Errorf("ending %s: %w", key, err)
	}
	return nil
}
