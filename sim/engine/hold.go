package engine

import (
	"context"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The pods of one simulated instant reach kube-scheduler together.
//
// Within an instant, a workload's pods come through different controllers
// (Kueue unsuspends a Job and kube-controller-manager makes its pods; the
// notebook controller makes a StatefulSet and kube-controller-manager its
// pod), each as fast as the machine lets it. kube-scheduler places a pod
// as soon as it sees it, so where two pods of one instant compete for the
// same nodes (a 1-GPU notebook on the node a 2-GPU pod needed) which one
// was made first decided, from run to run, where each landed and whether a
// workload ran at once or an hour later.
//
// Every pod template the engine builds therefore carries InstantGate, a
// scheduling gate (spec.schedulingGates, the API's own way to keep a pod
// from kube-scheduler). Once the control plane is quiet, so every pod the
// instant makes exists, the settle lifts the gate from each pod it holds,
// one write at a time, in the order kube-scheduler's own queue takes pods
// that arrive together (PrioritySort: pod priority, then arrival), with the
// scenario's arrival order for "arrival" (releaseOrder). kube-scheduler,
// running one filter goroutine (sim/cluster's scheduler configuration),
// then places the same pods in the same sequence on the same nodes, and
// the settle waits for it as for any pod. Pods that more gates hold (Kueue's
// topology gate) wait until InstantGate is their last.
//
// The cost is one pod write each, and one more quiet poll round at an
// instant that makes pods.
const InstantGate = "kueue-sim.io/instant"

// heldPod is a pod that only InstantGate keeps from kube-scheduler.
type heldPod struct {
	namespace, name string
	priority        int32
	workload        string // its WorkloadLabel: the arrival's name
}

// heldOnly tells whether InstantGate is all that keeps p from
// kube-scheduler: the busy index lists such pods apart (settle.NewIndex).
func heldOnly(p *corev1.Pod) bool {
	return p.Spec.NodeName == "" && p.DeletionTimestamp == nil &&
		len(p.Spec.SchedulingGates) == 1 && p.Spec.SchedulingGates[0].Name == InstantGate
}

func heldPodOf(p *corev1.Pod) heldPod {
	return heldPod{namespace: p.Namespace, name: p.Name, priority: ptr.Deref(p.Spec.Priority, 0), workload: p.Labels[WorkloadLabel]}
}

// releaseOrder sorts pods as kube-scheduler's queue sorts pods that arrive
// together: higher priority first, then earlier arrival, which is the
// workload's place in the scenario's arrivals (seq; a pod of none comes
// last), then the pod's name (pods of one workload that differ only by a
// generated suffix are alike).
func releaseOrder(pods []heldPod, seq func(namespace, workload string) (int, bool)) {
	place := func(p heldPod) int {
		if i, ok := seq(p.namespace, p.workload); ok {
			return i
		}
		return int(^uint(0) >> 1)
	}
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if a.priority != b.priority {
			return a.priority > b.priority
		}
		if pa, pb := place(a), place(b); pa != pb {
			return pa < pb
		}
		if a.namespace != b.namespace {
			return a.namespace < b.namespace
		}
		return a.name < b.name
	})
}

// ungatePatch removes InstantGate and leaves any other gate.
var ungatePatch = []byte(`{"spec":{"schedulingGates":[{"$patch":"delete","name":"` + InstantGate + `"}]}}`)

// releaseHeld lifts InstantGate from every pod of this run that only it
// holds, in releaseOrder, and returns how many it released. Pods of
// workloads this run did not submit (another run's, on a shared cluster)
// are left to their run.
func (r *Runner) releaseHeld(ctx context.Context) (int, error) {
	var pods []heldPod
	for _, pod := range r.index.HeldPods() {
		p := heldPodOf(pod)
		if _, ok := r.arrivalSeq[p.namespace+"/"+p.workload]; ok {
			pods = append(pods, p)
		}
	}
	releaseOrder(pods, func(ns, wl string) (int, bool) {
		i, ok := r.arrivalSeq[ns+"/"+wl]
		return i, ok
	})
	n := 0
	for _, p := range pods {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: p.namespace, Name: p.name}}
		err := r.t.Client.Patch(ctx, pod, client.RawPatch(types.StrategicMergePatchType, ungatePatch))
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return n, fmt.Errorf("releasing pod %s/%s to kube-scheduler: %w", p.namespace, p.name, err)
		default:
			n++
		}
	}
	return n, nil
}
