package engine

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

func TestBusyIndex(t *testing.T) {
	x := newBusyIndex()
	want := func(step, sub string) {
		t.Helper()
		got := x.first()
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
	x := newBusyIndex()
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "j"},
		Spec:   batchv1.JobSpec{Parallelism: ptr.To[int32](1), Completions: ptr.To[int32](1), BackoffLimit: ptr.To[int32](0), Suspend: ptr.To(false)},
		Status: batchv1.JobStatus{Failed: 1}}
	x.onJob(job)
	if got := x.first(); !strings.Contains(got, "has not marked it failed") {
		t.Errorf("busy = %q, want the failed job's pending condition", got)
	}
	job = job.DeepCopy()
	job.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobFailed, Status: corev1.ConditionTrue}}
	x.onJob(job)
	if got := x.first(); got != "" {
		t.Errorf("busy = %q after the Failed condition, want nothing", got)
	}
}

func TestBusyIndexHeldPods(t *testing.T) {
	x := newBusyIndex()
	gated := func(gates ...string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Labels: map[string]string{WorkloadLabel: "w-0"}}}
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
		{"Kueue's topology gate and the instant's", gated("kueue.x-k8s.io/topology", InstantGate), 0, ""},
		{"the instant's gate alone", gated(InstantGate), 1, ""},
		{"released: kube-apiserver's SchedulingGated mark stays", gated(), 0, "waits for kube-scheduler"},
	} {
		x.onPod(tc.pod)
		if got := len(x.heldPods()); got != tc.held {
			t.Errorf("%s: %d held pods, want %d", tc.name, got, tc.held)
		}
		if got := x.first(); (tc.busy == "") != (got == "") || !strings.Contains(got, tc.busy) {
			t.Errorf("%s: busy = %q, want %q", tc.name, got, tc.busy)
		}
	}
	x.onPod(gated(InstantGate))
	x.onPodDeleted(gated(InstantGate))
	if got := len(x.heldPods()); got != 0 {
		t.Errorf("a deleted pod stays held (%d)", got)
	}
}
