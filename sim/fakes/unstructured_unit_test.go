package fakes

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestNotebookStatefulSet(t *testing.T) {
	nb := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kubeflow.org/v1", "kind": "Notebook",
		"metadata": map[string]any{
			"name": "wb", "namespace": "ns", "uid": "uid",
			"labels": map[string]any{"kueue.x-k8s.io/queue-name": "lq", "kueue.x-k8s.io/priority-class": "high"},
			"annotations": map[string]any{
				"kubectl.kubernetes.io/last-applied-configuration": "{}",
				"notebooks.opendatahub.io/inject-oauth":            "true",
				"openshift.io/display-name":                        "My workbench",
			},
		},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "wb", "image": "jupyter"}},
		}}},
	}}
	sts, err := notebookStatefulSet(nb)
	if err != nil {
		t.Fatal(err)
	}
	if *sts.Spec.Replicas != 1 {
		t.Errorf("replicas %d, want 1", *sts.Spec.Replicas)
	}
	wantLabels := map[string]string{"kueue.x-k8s.io/queue-name": "lq", "kueue.x-k8s.io/priority-class": "high"}
	if diff := cmp.Diff(wantLabels, sts.Labels); diff != "" {
		t.Errorf("StatefulSet labels (-want +got):\n%s", diff)
	}
	wantPodLabels := map[string]string{
		"kueue.x-k8s.io/queue-name": "lq", "kueue.x-k8s.io/priority-class": "high",
		"statefulset": "wb", "notebook-name": "wb", "opendatahub.io/workbenches": "true",
	}
	if diff := cmp.Diff(wantPodLabels, sts.Spec.Template.Labels); diff != "" {
		t.Errorf("pod labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"openshift.io/display-name": "My workbench"}, sts.Spec.Template.Annotations); diff != "" {
		t.Errorf("pod annotations (-want +got):\n%s", diff)
	}
	if ref := metav1.GetControllerOf(sts); ref == nil || ref.Kind != "Notebook" || ref.UID != "uid" {
		t.Errorf("controller %+v, want the Notebook", ref)
	}
	if got := sts.Spec.Template.Spec.Containers[0].Image; got != "jupyter" {
		t.Errorf("container image %q, want the Notebook's", got)
	}

	nb.SetAnnotations(map[string]string{"kubeflow-resource-stopped": "2026-01-01T00:00:00Z"})
	if sts, _ := notebookStatefulSet(nb); *sts.Spec.Replicas != 0 {
		t.Errorf("stopped notebook: replicas %d, want 0", *sts.Spec.Replicas)
	}
}

func TestNotebookStatusOf(t *testing.T) {
	sts := &appsv1.StatefulSet{Status: appsv1.StatefulSetStatus{ReadyReplicas: 1}}
	running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: t0}}
	pod := &corev1.Pod{Status: corev1.PodStatus{
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}},
		ContainerStatuses: []corev1.ContainerStatus{
			{Name: "oauth-proxy", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}},
			{Name: "wb", State: running},
		},
	}}
	want := notebookStatus{
		ReadyReplicas:  1,
		ContainerState: running,
		Conditions:     []notebookCondition{{Type: "Ready", Status: "True", LastTransitionTime: t0, LastProbeTime: t1}},
	}
	if diff := cmp.Diff(want, notebookStatusOf("wb", sts, pod, t1)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPredictorDeployment(t *testing.T) {
	isvc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "serving.kserve.io/v1beta1", "kind": "InferenceService",
		"metadata": map[string]any{"name": "iris", "namespace": "ns", "labels": map[string]any{"kueue.x-k8s.io/queue-name": "lq"}},
		"spec": map[string]any{"predictor": map[string]any{
			"nodeSelector": map[string]any{"pool": "l4"},
			"model": map[string]any{
				"modelFormat": map[string]any{"name": "sklearn"},
				"resources":   map[string]any{"limits": map[string]any{"nvidia.com/gpu": "1"}},
			},
		}},
	}}
	dep, err := predictorDeployment(isvc)
	if err != nil {
		t.Fatal(err)
	}
	if dep.Name != "iris-predictor" || *dep.Spec.Replicas != 1 {
		t.Errorf("deployment %s with %d replicas, want iris-predictor with 1", dep.Name, *dep.Spec.Replicas)
	}
	wantLabels := map[string]string{
		"kueue.x-k8s.io/queue-name": "lq", "serving.kserve.io/inferenceservice": "iris",
		"component": "predictor", "app": "isvc.iris-predictor",
	}
	if diff := cmp.Diff(wantLabels, dep.Spec.Template.Labels); diff != "" {
		t.Errorf("pod labels (-want +got):\n%s", diff)
	}
	spec := dep.Spec.Template.Spec
	c := spec.Containers[0]
	if c.Name != "kserve-container" || c.Image == "" || !c.Resources.Limits["nvidia.com/gpu"].Equal(resource.MustParse("1")) {
		t.Errorf("container %s image %q limits %v, want kserve-container with an image and the model's GPU", c.Name, c.Image, c.Resources.Limits)
	}
	if spec.NodeSelector["pool"] != "l4" {
		t.Errorf("nodeSelector %v, want the predictor's", spec.NodeSelector)
	}

	if err := unstructured.SetNestedField(isvc.Object, int64(3), "spec", "predictor", "minReplicas"); err != nil {
		t.Fatal(err)
	}
	if dep, _ := predictorDeployment(isvc); *dep.Spec.Replicas != 3 {
		t.Errorf("minReplicas 3: %d replicas", *dep.Spec.Replicas)
	}
}

func TestISVCStatusOf(t *testing.T) {
	dep := func(conds ...appsv1.DeploymentCondition) *appsv1.Deployment {
		return &appsv1.Deployment{Status: appsv1.DeploymentStatus{Conditions: conds, ReadyReplicas: 1}}
	}
	avail := func(s corev1.ConditionStatus, reason string) appsv1.DeploymentCondition {
		return appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: s, Reason: reason}
	}
	prog := func(s corev1.ConditionStatus, reason string) appsv1.DeploymentCondition {
		return appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: s, Reason: reason}
	}
	for _, tc := range []struct {
		name           string
		dep            *appsv1.Deployment
		pred, ready    corev1.ConditionStatus
		wantURL        bool
		wantModelState string
	}{
		{"no conditions yet", dep(), corev1.ConditionFalse, corev1.ConditionFalse, false, "Pending"},
		{"minimum replicas unavailable", dep(avail(corev1.ConditionFalse, "MinimumReplicasUnavailable"), prog(corev1.ConditionTrue, "ReplicaSetUpdated")),
			corev1.ConditionFalse, corev1.ConditionFalse, false, "Pending"},
		{"available, rolling out", dep(avail(corev1.ConditionTrue, "MinimumReplicasAvailable"), prog(corev1.ConditionTrue, "ReplicaSetUpdated")),
			corev1.ConditionUnknown, corev1.ConditionUnknown, false, "Pending"},
		{"available, rolled out", dep(avail(corev1.ConditionTrue, "MinimumReplicasAvailable"), prog(corev1.ConditionTrue, "NewReplicaSetAvailable")),
			corev1.ConditionTrue, corev1.ConditionTrue, true, "Loaded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := isvcStatusOf("iris", "ns", 1, tc.dep, isvcStatus{}, t0)
			got := map[string]corev1.ConditionStatus{}
			for _, c := range st.Conditions {
				got[c.Type] = c.Status
			}
			want := map[string]corev1.ConditionStatus{"PredictorReady": tc.pred, "IngressReady": corev1.ConditionTrue, "Ready": tc.ready}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
			if (st.URL != "") != tc.wantURL {
				t.Errorf("url %q, want one: %v", st.URL, tc.wantURL)
			}
			if st.ModelStatus.States.ActiveModelState != tc.wantModelState {
				t.Errorf("active model state %q, want %q", st.ModelStatus.States.ActiveModelState, tc.wantModelState)
			}
		})
	}

	// A condition keeps its transition time while its status holds.
	ready := dep(avail(corev1.ConditionTrue, ""), prog(corev1.ConditionTrue, "NewReplicaSetAvailable"))
	first := isvcStatusOf("iris", "ns", 1, ready, isvcStatus{}, t0)
	again := isvcStatusOf("iris", "ns", 1, ready, first, t1)
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("a second pass with nothing new changed the status (-first +again):\n%s", diff)
	}
}
