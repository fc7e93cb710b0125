package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	kftov1 "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// pod is a pod template of one container of that name.
func pod(name string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: name}}}}
}

// TestPodSets pins each kind's roles and counts, the rules Kueue's
// integrations (and KubeRay's, KServe's) follow.
func TestPodSets(t *testing.T) {
	worker := func(name string, replicas, lo *int32, hosts int32) rayv1.WorkerGroupSpec {
		return rayv1.WorkerGroupSpec{GroupName: name, Replicas: replicas, MinReplicas: lo, NumOfHosts: hosts, Template: pod("ray-worker")}
	}
	cluster := rayv1.RayClusterSpec{HeadGroupSpec: rayv1.HeadGroupSpec{Template: pod("ray-head")}, WorkerGroupSpecs: []rayv1.WorkerGroupSpec{
		worker("Small", ptr.To[int32](2), ptr.To[int32](1), 0),
		worker("multi-host", ptr.To[int32](3), nil, 2),
		worker("autoscaled", nil, ptr.To[int32](4), 1),
		worker("none", nil, nil, 0),
	}}
	for _, tc := range []struct {
		name string
		obj  client.Object
		want string
	}{
		{"Job of one pod", &batchv1.Job{Spec: batchv1.JobSpec{Template: pod("main")}}, "main 1"},
		{"Job of fewer completions than parallelism", &batchv1.Job{Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](5), Completions: ptr.To[int32](2), Template: pod("main")}}, "main 2"},
		{"Job of more completions than parallelism", &batchv1.Job{Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](5), Completions: ptr.To[int32](20), Template: pod("main")}}, "main 5"},
		{"PyTorchJob master and workers", &kftov1.PyTorchJob{Spec: kftov1.PyTorchJobSpec{PyTorchReplicaSpecs: map[kftov1.ReplicaType]*kftov1.ReplicaSpec{
			kftov1.PyTorchJobReplicaTypeWorker: {Replicas: ptr.To[int32](7), Template: pod("pytorch")},
			kftov1.PyTorchJobReplicaTypeMaster: {Template: pod("pytorch")},
		}}}, "master 1, worker 7"},
		{"PyTorchJob of workers only", &kftov1.PyTorchJob{Spec: kftov1.PyTorchJobSpec{PyTorchReplicaSpecs: map[kftov1.ReplicaType]*kftov1.ReplicaSpec{
			kftov1.PyTorchJobReplicaTypeWorker: {Template: pod("pytorch")},
		}}}, "worker 1"},
		{"RayCluster", &rayv1.RayCluster{Spec: cluster}, "head 1, small 2, multi-host 6, autoscaled 0, none 0"},
		{"RayJob", &rayv1.RayJob{Spec: rayv1.RayJobSpec{SubmissionMode: rayv1.SidecarMode, RayClusterSpec: &cluster}}, "head 1, small 2, multi-host 6, autoscaled 0, none 0"},
		{"RayJob without a cluster", &rayv1.RayJob{}, ""},
		{"Workload", &kueue.Workload{Spec: kueue.WorkloadSpec{PodSets: []kueue.PodSet{{Count: 2, Template: pod("a")}, {Name: "b", Count: 0, Template: pod("b")}}}}, "main 2, b 0"},
		{"Notebook", unstructuredObject(t, "kubeflow.org/v1", "Notebook", map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "nb"}}}}}), "main 1"},
		{"InferenceService of minReplicas 0", unstructuredObject(t, "serving.kserve.io/v1beta1", "InferenceService", map[string]any{"predictor": map[string]any{
			"minReplicas": int64(0), "containers": []any{map[string]any{"name": "server"}}}}), "main 1"},
		{"InferenceService of a model", unstructuredObject(t, "serving.kserve.io/v1beta1", "InferenceService", map[string]any{"predictor": map[string]any{
			"minReplicas": int64(3), "model": map[string]any{"modelFormat": map[string]any{"name": "sklearn"}}}}), "main 3"},
		{"InferenceService that does not decode", unstructuredObject(t, "serving.kserve.io/v1beta1", "InferenceService", map[string]any{"predictor": "sklearn"}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := roles(&LoadedTemplate{Object: tc.obj}); got != tc.want {
				t.Errorf("roles %q, want %q", got, tc.want)
			}
		})
	}
}

func unstructuredObject(t *testing.T, apiVersion, kind string, spec map[string]any) *unstructured.Unstructured {
	t.Helper()
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind, "spec": spec}}
}

// TestPodSetsInferenceService: the predictor's pods run the model's
// container first, named as KServe names it, then the predictor's own;
// their resources are found at their paths in the object.
func TestPodSetsInferenceService(t *testing.T) {
	isvc := unstructuredObject(t, "serving.kserve.io/v1beta1", "InferenceService", map[string]any{"predictor": map[string]any{
		"tolerations": []any{map[string]any{"key": "nvidia.com/gpu", "operator": "Exists"}},
		"model": map[string]any{"modelFormat": map[string]any{"name": "vLLM"},
			"resources": map[string]any{"limits": map[string]any{"nvidia.com/gpu": "1"}}},
		"containers": []any{map[string]any{"name": "proxy", "resources": map[string]any{"requests": map[string]any{"cpu": "500m"}}}},
	}})
	sets := (&LoadedTemplate{Object: isvc}).PodSets()
	if len(sets) != 1 {
		t.Fatalf("%d pod sets, want 1", len(sets))
	}
	spec := sets[0].Template.Spec
	var names []string
	for _, c := range spec.Containers {
		names = append(names, c.Name)
	}
	if diff := cmp.Diff([]string{KServeContainerName, "proxy"}, names); diff != "" {
		t.Errorf("containers (-want +got):\n%s", diff)
	}
	if len(spec.Tolerations) != 1 {
		t.Errorf("tolerations %v, want the predictor's", spec.Tolerations)
	}
	var paths []string
	for _, r := range sets[0].resources() {
		paths = append(paths, r.path.String())
	}
	want := []string{"spec.predictor.model.resources.limits", "spec.predictor.containers[0].resources.requests"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("resource paths (-want +got):\n%s", diff)
	}
}

// TestPodSetsAreCopies: changing a pod set's template leaves the object
// as loaded.
func TestPodSetsAreCopies(t *testing.T) {
	job := &batchv1.Job{Spec: batchv1.JobSpec{Template: pod("main")}}
	sets := (&LoadedTemplate{Object: job}).PodSets()
	sets[0].Template.Spec.Containers[0].Name = "changed"
	if job.Spec.Template.Spec.Containers[0].Name != "main" {
		t.Error("a pod set's template shares the object's")
	}
}
