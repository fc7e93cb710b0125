package settle

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

// instantGate and workloadLabel stand for the engine's gate and label:
// heldOnly is the engine's rule for the pods the gate alone holds.
const (
	instantGate   = "kueue-sim.io/instant"
	workloadLabel = "kueue-sim.io/workload"
)

func heldOnly(p *corev1.Pod) bool {
	return p.Spec.NodeName == "" && p.DeletionTimestamp == nil &&
		len(p.Spec.SchedulingGates) == 1 && p.Spec.SchedulingGates[0].Name == instantGate
}

func TestBusyIndex(t *testing.T) {
	x := NewIndex(heldOnly)
	want := func(step, sub string) {
		t.Helper()
		got := x.first().String()
		if (sub == "") != (got == "") || !strings.Contains(got, sub) {
			t.Errorf("%s: busy = %q, want %q", step, got, sub)
		}
	}
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "j"},
		Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](1), Completions: ptr.To[int32](1), Suspend: ptr.To(false)}}
	x.onJob(job)
	want("job unsuspended, no pod", "has not created its pods")
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "j-1", Labels: map[string]string{batchv1.JobNameLabel: "j"}}}
	x.onPod(pod)
	want("pod created", "waits for kube-scheduler")
	bound := pod.DeepCopy()
	bound.Spec.NodeName = "n"
	bound.Status.Phase = corev1.PodPending
	x.onPod(bound)
	want("pod bound", "waits for the kubelet")
	running := bound.DeepCopy()
	running.Status.Phase = corev1.PodRunning
	x.onPod(running)
	want("pod running", "")
	readyPod := running.DeepCopy()
	readyPod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	x.onPod(readyPod)
	want("pod ready, not counted", "has not counted its ready pods")
	readyCounted := job.DeepCopy()
	readyCounted.Status.Ready = ptr.To[int32](1)
	x.onJob(readyCounted)
	want("ready pod counted", "")
	done := running.DeepCopy()
	done.Status.Phase = corev1.PodSucceeded
	x.onPod(done)
	want("pod ended, not counted", "has not counted its ended pods")
	counted := job.DeepCopy()
	counted.Status.Succeeded = 1
	x.onJob(counted)
	want("pod counted, job not marked complete", "has not marked it complete")
	counted = counted.DeepCopy()
	counted.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}
	x.onJob(counted)
	want("job complete", "")
	x.onPodDeleted(toolscache.DeletedFinalStateUnknown{Obj: done}.Obj)
	x.onJobDeleted(counted)
	want("all gone", "")
	if len(x.jobPods) != 0 || len(x.podJob) != 0 || len(x.jobs) != 0 {
		t.Errorf("index keeps deleted objects: %v %v %v", x.jobPods, x.podJob, x.jobs)
	}

	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "nb", Generation: 2}, Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](1)}}
	x.onApps(sts)
	want("statefulset new", "statefulset ns/nb is being reconciled")
	ready := sts.DeepCopy()
	ready.Status.ObservedGeneration, ready.Status.Replicas = 2, 1
	x.onApps(ready)
	want("statefulset reconciled", "")
}

func TestBusyIndexFailedJob(t *testing.T) {
	x := NewIndex(heldOnly)
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "j"},
		Spec:   batchv1.JobSpec{Parallelism: ptr.To[int32](1), Completions: ptr.To[int32](1), BackoffLimit: ptr.To[int32](0), Suspend: ptr.To(false)},
		Status: batchv1.JobStatus{Failed: 1}}
	x.onJob(job)
	if got := x.first().String(); !strings.Contains(got, "has not marked it failed") {
		t.Errorf("busy = %q, want the failed job's pending condition", got)
	}
	job = job.DeepCopy()
	job.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobFailed, Status: corev1.ConditionTrue}}
	x.onJob(job)
	if got := x.first().String(); got != "" {
		t.Errorf("busy = %q after the Failed condition, want nothing", got)
	}
}

func TestBusyIndexHeldPods(t *testing.T) {
	x := NewIndex(heldOnly)
	gated := func(gates ...string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Labels: map[string]string{workloadLabel: "w-0"}}}
		for _, g := range gates {
			p.Spec.SchedulingGates = append(p.Spec.SchedulingGates, corev1.PodSchedulingGate{Name: g})
		}
		// kube-apiserver's mark on a pod created with gates.
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonSchedulingGated}}
		return p
	}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		held int
		busy string
	}{
		{"Kueue's topology gate and the instant's", gated("kueue.x-k8s.io/topology", instantGate), 0, ""},
		{"the instant's gate alone", gated(instantGate), 1, ""},
		{"released: kube-apiserver's SchedulingGated mark stays", gated(), 0, "waits for kube-scheduler"},
	} {
		x.onPod(tc.pod)
		if got := len(x.HeldPods()); got != tc.held {
			t.Errorf("%s: %d held pods, want %d", tc.name, got, tc.held)
		}
		if got := x.first().String(); (tc.busy == "") != (got == "") || !strings.Contains(got, tc.busy) {
			t.Errorf("%s: busy = %q, want %q", tc.name, got, tc.busy)
		}
	}
	x.onPod(gated(instantGate))
	x.onPodDeleted(gated(instantGate))
	if got := len(x.HeldPods()); got != 0 {
		t.Errorf("a deleted pod stays held (%d)", got)
	}
}
