package kube

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

func podSet(name string, count int32, req string) kueue.PodSet {
	return kueue.PodSet{Name: kueue.PodSetReference(name), Count: count, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(req)}}}},
	}}}
}

func owned(apiVersion, kind, name string, sets ...kueue.PodSet) *kueue.Workload {
	wl := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "ns"}, Spec: kueue.WorkloadSpec{QueueName: "q", PodSets: sets}}
	if kind != "" {
		wl.OwnerReferences = []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name}}
	}
	return wl
}

func TestShapeOf(t *testing.T) {
	for _, tc := range []struct {
		name     string
		wl       *kueue.Workload
		kind     scenarios.WorkloadKind
		replicas int32
		cpu      string
	}{
		{"job", owned("batch/v1", "Job", "j", podSet("main", 3, "2")), scenarios.KindJob, 3, "2"},
		{"job of two pod sets", owned("batch/v1", "Job", "j", podSet("a", 1, "1"), podSet("b", 1, "1")), scenarios.KindWorkload, 1, "2"},
		{"pytorchjob", owned("kubeflow.org/v1", "PyTorchJob", "p", podSet("master", 1, "4"), podSet("worker", 2, "4")), scenarios.KindPyTorchJob, 3, "4"},
		{"pytorchjob master only", owned("kubeflow.org/v1", "PyTorchJob", "p", podSet("master", 1, "4")), scenarios.KindPyTorchJob, 1, "4"},
		{"pytorchjob of two shapes", owned("kubeflow.org/v1", "PyTorchJob", "p", podSet("master", 1, "1"), podSet("worker", 2, "4")), scenarios.KindWorkload, 1, "9"},
		{"rayjob with submitter", owned("ray.io/v1", "RayJob", "r", podSet("head", 1, "2"), podSet("workers", 3, "2"), podSet("submitter", 1, "500m")), scenarios.KindRayJob, 4, "2"},
		{"raycluster of two worker groups", owned("ray.io/v1", "RayCluster", "r", podSet("head", 1, "2"), podSet("a", 1, "2"), podSet("b", 1, "2")), scenarios.KindWorkload, 1, "6"},
		{"notebook", owned("apps/v1", "StatefulSet", "nb", podSet("main", 1, "1")), scenarios.KindNotebook, 1, "1"},
		{"statefulset of three", owned("apps/v1", "StatefulSet", "db", podSet("main", 3, "1")), scenarios.KindWorkload, 1, "3"},
		{"inferenceservice pod", owned("v1", "Pod", "model-predictor-5d8f-x2", podSet("main", 1, "1")), scenarios.KindInferenceService, 1, "1"},
		{"plain pod", owned("v1", "Pod", "sleeper", podSet("main", 1, "1")), scenarios.KindWorkload, 1, "1"},
		{"jobset", owned("jobset.x-k8s.io/v1alpha2", "JobSet", "js", podSet("a", 2, "1")), scenarios.KindWorkload, 1, "2"},
		{"no owner", owned("", "", "", podSet("main", 2, "1")), scenarios.KindWorkload, 1, "2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _, ok := fromWorkload(tc.wl)
			if !ok {
				t.Fatal("left out")
			}
			cpu := r.Requests[corev1.ResourceCPU]
			if r.Kind != tc.kind || r.Replicas != tc.replicas || cpu.Cmp(resource.MustParse(tc.cpu)) != 0 {
				t.Errorf("kind %s, replicas %d, cpu %s; want %s, %d, %s", r.Kind, r.Replicas, cpu.String(), tc.kind, tc.replicas, tc.cpu)
			}
		})
	}
}

func TestPodRequests(t *testing.T) {
	q := resource.MustParse
	c := func(cpu, mem string) corev1.Container {
		return corev1.Container{Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: q(cpu), corev1.ResourceMemory: q(mem)}}}
	}
	sidecar := c("1", "1Gi")
	sidecar.RestartPolicy = ptr.To(corev1.ContainerRestartPolicyAlways)
	limitOnly := corev1.Container{Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{"nvidia.com/gpu": q("2")}}}
	for _, tc := range []struct {
		name string
		spec corev1.PodSpec
		want corev1.ResourceList
	}{
		{"containers add up", corev1.PodSpec{Containers: []corev1.Container{c("1", "1Gi"), c("500m", "512Mi")}},
			corev1.ResourceList{corev1.ResourceCPU: q("1500m"), corev1.ResourceMemory: q("1536Mi")}},
		{"a larger init container wins", corev1.PodSpec{InitContainers: []corev1.Container{c("4", "1Gi")}, Containers: []corev1.Container{c("1", "2Gi")}},
			corev1.ResourceList{corev1.ResourceCPU: q("4"), corev1.ResourceMemory: q("2Gi")}},
		{"sidecars add up", corev1.PodSpec{InitContainers: []corev1.Container{sidecar}, Containers: []corev1.Container{c("1", "1Gi")}},
			corev1.ResourceList{corev1.ResourceCPU: q("2"), corev1.ResourceMemory: q("2Gi")}},
		{"a limit stands for a missing request", corev1.PodSpec{Containers: []corev1.Container{limitOnly}},
			corev1.ResourceList{"nvidia.com/gpu": q("2")}},
		{"overhead", corev1.PodSpec{Containers: []corev1.Container{c("1", "1Gi")}, Overhead: corev1.ResourceList{corev1.ResourceCPU: q("250m")}},
			corev1.ResourceList{corev1.ResourceCPU: q("1250m"), corev1.ResourceMemory: q("1Gi")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := podRequests(&tc.spec); requestsString(got) != requestsString(tc.want) {
				t.Errorf("got %s, want %s", requestsString(got), requestsString(tc.want))
			}
		})
	}
}
