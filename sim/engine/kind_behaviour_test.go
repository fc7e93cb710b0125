package engine

import (
	"context"
	"fmt"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scheme"
)

// TestRunEnds: how a run ends, per kind: a long-running kind's object is
// deleted, a raw Workload is marked Finished, the others' running pods
// succeed (a Job's pod here; the operators' pods are matched by owner).
func TestRunEnds(t *testing.T) {
	want := map[scenarios.WorkloadKind]string{
		scenarios.KindJob:              "pods [train-7-pod:Succeeded]",
		scenarios.KindPyTorchJob:       "pods []",
		scenarios.KindRayJob:           "pods []",
		scenarios.KindRayCluster:       "deleted",
		scenarios.KindNotebook:         "deleted",
		scenarios.KindInferenceService: "deleted",
		scenarios.KindWorkload:         "finished Succeeded",
	}
	s, err := scheme.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, gvk := range []schema.GroupVersionKind{
		{Group: "kubeflow.org", Version: "v1", Kind: "Notebook"},
		{Group: "serving.kserve.io", Version: "v1beta1", Kind: "InferenceService"},
	} {
		s.AddKnownTypeWithName(gvk, &unstructured.Unstructured{})
	}
	for _, kind := range scenarios.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			ctx := context.Background()
			a := kindArrivals(kind)["full"]
			obj, err := WorkloadObject(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			obj.SetUID("uid-7")
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: "train-7-pod", Namespace: a.Team.Namespace,
					Labels: map[string]string{batchv1.ControllerUidLabel: "uid-7"}},
				Status: corev1.PodStatus{Phase: corev1.PodRunning},
			}
			c := fake.NewClientBuilder().WithScheme(s).WithObjects(obj, pod).
				WithStatusSubresource(&kueue.Workload{}).Build()
			var finished []string
			r := &Runner{clock: &VirtualClock{}, obs: newObserver(&VirtualClock{}, nil, &scenarios.Scenario{}),
				t: Target{Client: c, FinishPod: func(_ context.Context, p client.ObjectKey, phase corev1.PodPhase) error {
					finished = append(finished, p.Name+":"+string(phase))
					return nil
				}}}
			st := r.obs.track(a, a.Team.Namespace+"/"+a.Name, "cq")
			end := r.finish(st)
			if end.do == nil {
				t.Fatal("finish returned no call")
			}
			if err := end.do(ctx); err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("pods %v", finished)
			after, _ := WorkloadObject(a, nil)
			switch err := c.Get(ctx, client.ObjectKeyFromObject(after), after); {
			case apierrors.IsNotFound(err):
				got = "deleted"
			case err != nil:
				t.Fatal(err)
			}
			if wl, ok := after.(*kueue.Workload); ok {
				if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadFinished); c != nil {
					got = "finished " + c.Reason
				}
			}
			if got != want[kind] {
				t.Errorf("the run of a %s ended with %q, want %q", kind, got, want[kind])
			}
		})
	}
}

// TestRunningRule: a raw Workload runs while admitted; any other kind once
// all its pods run (a RayJob's submitter too), after Kueue admits it if
// Kueue manages it; nothing finished runs.
func TestRunningRule(t *testing.T) {
	for _, tc := range []struct {
		kind                       scenarios.WorkloadKind
		unqueued, admitted, finish bool
		pods                       int
		want                       bool
	}{
		{kind: scenarios.KindJob, pods: 3},
		{kind: scenarios.KindJob, admitted: true, pods: 2},
		{kind: scenarios.KindJob, admitted: true, pods: 3, want: true},
		{kind: scenarios.KindJob, unqueued: true, pods: 3, want: true},
		{kind: scenarios.KindJob, admitted: true, finish: true, pods: 3},
		{kind: scenarios.KindRayJob, admitted: true, pods: 3},
		{kind: scenarios.KindRayJob, admitted: true, pods: 4, want: true},
		{kind: scenarios.KindNotebook, admitted: true, pods: 3, want: true},
		{kind: scenarios.KindWorkload, admitted: true, want: true},
		{kind: scenarios.KindWorkload, unqueued: true},
		{kind: scenarios.KindWorkload, admitted: true, finish: true},
	} {
		a := kindArrivals(tc.kind)["full"]
		if tc.unqueued {
			a.Stream.Queue, a.Stream.HardwareProfile = "", ""
		}
		st := &wlState{arrival: a, admitted: tc.admitted, finished: tc.finish, runningPods: map[string]bool{}}
		for i := range tc.pods {
			st.runningPods[fmt.Sprint(i)] = true
		}
		if got := (&Runner{}).isRunning(st); got != tc.want {
			t.Errorf("%+v: running = %v, want %v", tc, got, tc.want)
		}
	}
}

// TestEvictionCompletion: the engine completes the eviction of raw
// Workloads only; Kueue's job integrations do it for every other kind.
func TestEvictionCompletion(t *testing.T) {
	for _, kind := range scenarios.Kinds {
		a := kindArrivals(kind)["full"]
		o := newObserver(&VirtualClock{}, nil, &scenarios.Scenario{})
		var got []client.ObjectKey
		o.evicted = func(k client.ObjectKey) { got = append(got, k) }
		o.track(a, a.Team.Namespace+"/"+a.Name, "cq")
		wl := &kueue.Workload{
			ObjectMeta: metav1.ObjectMeta{Name: "wl-" + a.Name, Namespace: a.Team.Namespace, Labels: map[string]string{WorkloadLabel: a.Name}},
			Status: kueue.WorkloadStatus{Conditions: []metav1.Condition{
				{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionTrue},
				{Type: kueue.WorkloadEvicted, Status: metav1.ConditionTrue, Reason: kueue.WorkloadEvictedByPreemption},
			}},
		}
		o.onWorkload(nil, wl)
		var want []client.ObjectKey
		if kind == scenarios.KindWorkload {
			want = []client.ObjectKey{{Namespace: a.Team.Namespace, Name: wl.Name}}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("evicted %s: completed %v, want %v", kind, got, want)
		}
	}
}
