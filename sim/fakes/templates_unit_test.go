package fakes

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

// userPodSpec is a pod spec as a user writes one: its own requests, an
// init container and a sidecar, overhead, tolerations, a node selector, a
// node affinity and a priority class.
func userPodSpec(cpu string) corev1.PodSpec {
	req := func(cpu string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}
	}
	return corev1.PodSpec{
		InitContainers: []corev1.Container{
			{Name: "fetch", Image: "busybox", Resources: req("3")},
			{Name: "proxy", Image: "envoy", Resources: req("100m"), RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways)},
		},
		Containers:        []corev1.Container{{Name: "main", Image: "trainer", Resources: req(cpu)}},
		Overhead:          corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")},
		Tolerations:       []corev1.Toleration{{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
		NodeSelector:      map[string]string{"pool": "h100"},
		PriorityClassName: "training",
		Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}},
		}}},
	}
}

// TestPodsKeepTheirTemplates: each fake's pods have the spec of their
// role's template as written: a PyTorchJob's master and workers their own,
// a Ray cluster's head and each worker group theirs, a Notebook's and an
// InferenceService predictor's pod theirs (the predictor with KServe's
// model container first).
func TestPodsKeepTheirTemplates(t *testing.T) {
	master, worker := userPodSpec("4"), userPodSpec("2")
	worker.Tolerations = nil

	pj := &kftraining.PyTorchJob{
		ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "ns", UID: "uid"},
		Spec: kftraining.PyTorchJobSpec{PyTorchReplicaSpecs: map[kftraining.ReplicaType]*kftraining.ReplicaSpec{
			kftraining.PyTorchJobReplicaTypeMaster: {Replicas: ptr.To[int32](1), RestartPolicy: kftraining.RestartPolicyNever, Template: corev1.PodTemplateSpec{Spec: master}},
			kftraining.PyTorchJobReplicaTypeWorker: {Replicas: ptr.To[int32](3), RestartPolicy: kftraining.RestartPolicyNever, Template: corev1.PodTemplateSpec{Spec: worker}},
		}},
	}
	wantMaster, wantWorker := *master.DeepCopy(), *worker.DeepCopy()
	wantMaster.RestartPolicy, wantWorker.RestartPolicy = corev1.RestartPolicyNever, corev1.RestartPolicyNever
	pods := pyTorchPods(pj)
	if len(pods) != 4 {
		t.Fatalf("%d PyTorchJob pods, want 1 master and 3 workers", len(pods))
	}
	for i, p := range pods {
		want := wantWorker
		if i == 0 {
			want = wantMaster
		}
		if diff := cmp.Diff(want, p.Spec); diff != "" {
			t.Errorf("PyTorchJob pod %s spec (-want +got):\n%s", p.Name, diff)
		}
	}

	rc := &rayv1.RayCluster{
		ObjectMeta: metav1.ObjectMeta{Name: "rc", Namespace: "ns", UID: "uid"},
		Spec: rayv1.RayClusterSpec{
			HeadGroupSpec: rayv1.HeadGroupSpec{Template: corev1.PodTemplateSpec{Spec: master}},
			WorkerGroupSpecs: []rayv1.WorkerGroupSpec{
				{GroupName: "a", Replicas: ptr.To[int32](1), NumOfHosts: 1, Template: corev1.PodTemplateSpec{Spec: worker}},
				{GroupName: "b", Replicas: ptr.To[int32](1), NumOfHosts: 1, Template: corev1.PodTemplateSpec{Spec: userPodSpec("8")}},
			},
		},
	}
	rpods := rayClusterPods(rc, rayv1.SchemeGroupVersion.WithKind("RayCluster"), rc.Name, &rc.Spec, nil)
	for i, want := range []corev1.PodSpec{master, worker, userPodSpec("8")} {
		if diff := cmp.Diff(want, rpods[i].Spec); diff != "" {
			t.Errorf("Ray pod %s spec (-want +got):\n%s", rpods[i].Name, diff)
		}
	}

	podSpec, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&master)
	if err != nil {
		t.Fatal(err)
	}
	nb := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kubeflow.org/v1", "kind": "Notebook",
		"metadata": map[string]any{"name": "wb", "namespace": "ns", "uid": "uid"},
		"spec":     map[string]any{"template": map[string]any{"spec": podSpec}},
	}}
	sts, err := notebookStatefulSet(nb)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(master, sts.Spec.Template.Spec); diff != "" {
		t.Errorf("Notebook pod spec (-want +got):\n%s", diff)
	}

	predictor := runtime.DeepCopyJSON(podSpec)
	predictor["minReplicas"] = int64(2)
	predictor["model"] = map[string]any{"modelFormat": map[string]any{"name": "sklearn"}, "image": "server",
		"resources": map[string]any{"requests": map[string]any{"cpu": "1"}}}
	isvc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "serving.kserve.io/v1beta1", "kind": "InferenceService",
		"metadata": map[string]any{"name": "llm", "namespace": "ns", "uid": "uid"},
		"spec":     map[string]any{"predictor": predictor},
	}}
	dep, err := predictorDeployment(isvc)
	if err != nil {
		t.Fatal(err)
	}
	wantPredictor := *master.DeepCopy()
	wantPredictor.Containers = append([]corev1.Container{{Name: kserveContainerName, Image: "server",
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}, wantPredictor.Containers...)
	if diff := cmp.Diff(wantPredictor, dep.Spec.Template.Spec); diff != "" {
		t.Errorf("predictor pod spec (-want +got):\n%s", diff)
	}
	if *dep.Spec.Replicas != 2 {
		t.Errorf("predictor replicas %d, want minReplicas 2", *dep.Spec.Replicas)
	}
}
