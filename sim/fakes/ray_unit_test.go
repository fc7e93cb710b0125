package fakes

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func testRayCluster() *rayv1.RayCluster {
	return &rayv1.RayCluster{
		ObjectMeta: metav1.ObjectMeta{Name: "rc", Namespace: "ns", UID: "uid", Generation: 2},
		Spec: rayv1.RayClusterSpec{
			HeadGroupSpec: rayv1.HeadGroupSpec{Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"team": "a", "ray.io/cluster": "other"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "ray-head", Image: "ray"}}},
			}},
			WorkerGroupSpecs: []rayv1.WorkerGroupSpec{
				{GroupName: "gpu", Replicas: ptr.To[int32](2), MinReplicas: ptr.To[int32](1), MaxReplicas: ptr.To[int32](4), NumOfHosts: 1},
				{GroupName: "off", Replicas: ptr.To[int32](3), NumOfHosts: 1, Suspend: ptr.To(true)},
			},
		},
	}
}

func TestRayClusterPods(t *testing.T) {
	rc := testRayCluster()
	var names []string
	for _, p := range rayClusterPods(rc, rayv1.SchemeGroupVersion.WithKind("RayCluster"), rc.Name, &rc.Spec, map[string]string{"extra": "x"}) {
		names = append(names, p.Name)
		if p.Labels["ray.io/cluster"] != "rc" || p.Labels["extra"] != "x" {
			t.Errorf("pod %s labels %v: want ray.io/cluster=rc (not the template's) and the extra label", p.Name, p.Labels)
		}
	}
	want := []string{"rc-head", "rc-gpu-worker-0", "rc-gpu-worker-1"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("pods (-want +got):\n%s", diff)
	}
}

func rayPod(name, nodeType string, phase corev1.PodPhase, ready bool) corev1.Pod {
	s := corev1.ConditionFalse
	if ready {
		s = corev1.ConditionTrue
	}
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"ray.io/node-type": nodeType}},
		Status:     corev1.PodStatus{Phase: phase, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: s}}},
	}
}

func TestRayClusterStatus(t *testing.T) {
	ctx := context.Background()
	rc := testRayCluster()
	pending := []corev1.Pod{
		rayPod("rc-head", "head", corev1.PodRunning, true),
		rayPod("rc-gpu-worker-0", "worker", corev1.PodRunning, true),
		rayPod("rc-gpu-worker-1", "worker", corev1.PodPending, false),
	}
	st := rayClusterStatus(ctx, rc, pending, t0)
	if st.State != "" || st.AvailableWorkerReplicas != 1 || st.DesiredWorkerReplicas != 2 || st.MinWorkerReplicas != 1 || st.MaxWorkerReplicas != 4 {
		t.Errorf("while a worker is pending: state %q, available %d, desired %d, min %d, max %d; want \"\", 1, 2, 1, 4",
			st.State, st.AvailableWorkerReplicas, st.DesiredWorkerReplicas, st.MinWorkerReplicas, st.MaxWorkerReplicas)
	}
	if !meta.IsStatusConditionTrue(st.Conditions, string(rayv1.HeadPodReady)) || meta.IsStatusConditionTrue(st.Conditions, string(rayv1.RayClusterProvisioned)) {
		t.Errorf("conditions %+v: want HeadPodReady true, RayClusterProvisioned false", st.Conditions)
	}

	rc.Status = st
	running := append(pending[:2:2], rayPod("rc-gpu-worker-1", "worker", corev1.PodRunning, true))
	st = rayClusterStatus(ctx, rc, running, t1)
	if st.State != rayv1.Ready || st.ReadyWorkerReplicas != 2 || st.ObservedGeneration != 2 || st.Head.PodName != "rc-head" {
		t.Errorf("all running: state %q, ready workers %d, observed generation %d, head %q; want ready, 2, 2, rc-head",
			st.State, st.ReadyWorkerReplicas, st.ObservedGeneration, st.Head.PodName)
	}
	if tt := st.StateTransitionTimes[rayv1.Ready]; tt == nil || !tt.Equal(&t1) {
		t.Errorf("ready transition time %v, want %v", tt, t1)
	}

	rc.Status, rc.Spec.Suspend = st, ptr.To(true)
	st = rayClusterStatus(ctx, rc, running, t1)
	if st.State != rayv1.Ready || !meta.IsStatusConditionTrue(st.Conditions, string(rayv1.RayClusterSuspending)) {
		t.Errorf("suspending with pods left: state %q, conditions %+v; want still ready, Suspending", st.State, st.Conditions)
	}
	rc.Status = st
	st = rayClusterStatus(ctx, rc, nil, t1)
	if st.State != rayv1.Suspended || !meta.IsStatusConditionTrue(st.Conditions, string(rayv1.RayClusterSuspended)) ||
		meta.IsStatusConditionTrue(st.Conditions, string(rayv1.RayClusterSuspending)) {
		t.Errorf("suspended without pods: state %q, conditions %+v; want suspended, Suspended and not Suspending", st.State, st.Conditions)
	}
}

func TestRayJobProgress(t *testing.T) {
	pod := func(phase corev1.PodPhase) *corev1.Pod { return &corev1.Pod{Status: corev1.PodStatus{Phase: phase}} }
	type result struct {
		Job        rayv1.JobStatus
		Deployment rayv1.JobDeploymentStatus
		Reason     rayv1.JobFailedReason
	}
	for _, tc := range []struct {
		name   string
		driver *corev1.Pod
		want   result
	}{
		{"no driver yet", nil, result{rayv1.JobStatusPending, rayv1.JobDeploymentStatusRunning, ""}},
		{"driver pending", pod(corev1.PodPending), result{rayv1.JobStatusPending, rayv1.JobDeploymentStatusRunning, ""}},
		{"driver running", pod(corev1.PodRunning), result{rayv1.JobStatusRunning, rayv1.JobDeploymentStatusRunning, ""}},
		{"driver succeeded", pod(corev1.PodSucceeded), result{rayv1.JobStatusSucceeded, rayv1.JobDeploymentStatusComplete, ""}},
		{"driver failed", pod(corev1.PodFailed), result{rayv1.JobStatusFailed, rayv1.JobDeploymentStatusFailed, rayv1.AppFailed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &rayv1.RayJobStatus{JobDeploymentStatus: rayv1.JobDeploymentStatusRunning}
			rayJobProgress(st, "job", tc.driver)
			if diff := cmp.Diff(tc.want, result{st.JobStatus, st.JobDeploymentStatus, st.Reason}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSuspendedRayJobStatus(t *testing.T) {
	st := &rayv1.RayJobStatus{
		JobDeploymentStatus: rayv1.JobDeploymentStatusSuspending, JobStatus: rayv1.JobStatusRunning,
		RayClusterName: "c", JobId: "j", DashboardURL: "u", StartTime: &t0,
		RayClusterStatus: rayv1.RayClusterStatus{State: rayv1.Ready},
	}
	suspendedRayJobStatus(st)
	want := &rayv1.RayJobStatus{JobDeploymentStatus: rayv1.JobDeploymentStatusSuspended, StartTime: &t0}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestStableSuffix(t *testing.T) {
	a, b := stableSuffix("ns", "job"), stableSuffix("ns", "job")
	if a != b || len(a) != 5 {
		t.Errorf("stableSuffix gave %q then %q, want the same five characters", a, b)
	}
	if stableSuffix("ns", "job") == stableSuffix("nsj", "ob") {
		t.Error("stableSuffix does not separate its parts")
	}
}
