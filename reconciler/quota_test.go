package reconciler

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

func node(alloc map[corev1.ResourceName]string) corev1.Node {
	n := corev1.Node{Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{}}}
	for k, v := range alloc {
		n.Status.Allocatable[k] = resource.MustParse(v)
	}
	return n
}

func list(m map[corev1.ResourceName]string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for k, v := range m {
		l[k] = resource.MustParse(v)
	}
	return l
}

func TestCapacity(t *testing.T) {
	deleting := node(map[corev1.ResourceName]string{corev1.ResourceCPU: "100"})
	deleting.DeletionTimestamp = &metav1.Time{}
	cases := []struct {
		name  string
		nodes []corev1.Node
		want  corev1.ResourceList
	}{
		{"no nodes", nil, corev1.ResourceList{}},
		{"sums cpu and memory across units", []corev1.Node{
			node(map[corev1.ResourceName]string{corev1.ResourceCPU: "1500m", corev1.ResourceMemory: "1Gi"}),
			node(map[corev1.ResourceName]string{corev1.ResourceCPU: "2", corev1.ResourceMemory: "512Mi"}),
		}, list(map[corev1.ResourceName]string{corev1.ResourceCPU: "3500m", corev1.ResourceMemory: "1536Mi"})},
		{"GPUs of both vendors, other resources ignored", []corev1.Node{
			node(map[corev1.ResourceName]string{NvidiaGPU: "4", "pods": "110", "example.com/fpga": "2"}),
			node(map[corev1.ResourceName]string{NvidiaGPU: "8", AMDGPU: "2"}),
		}, list(map[corev1.ResourceName]string{NvidiaGPU: "12", AMDGPU: "2"})},
		{"zero GPUs count as none", []corev1.Node{
			node(map[corev1.ResourceName]string{AMDGPU: "0", corev1.ResourceCPU: "1"}),
		}, list(map[corev1.ResourceName]string{corev1.ResourceCPU: "1"})},
		{"nodes being deleted are left out", []corev1.Node{
			deleting, node(map[corev1.ResourceName]string{corev1.ResourceCPU: "1"}),
		}, list(map[corev1.ResourceName]string{corev1.ResourceCPU: "1"})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, capacity(tc.nodes)); diff != "" {
				t.Errorf("capacity (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaultFlavorNames(t *testing.T) {
	cases := []struct {
		name string
		c    corev1.ResourceList
		want []string
	}{
		{"CPU-only cluster", list(map[corev1.ResourceName]string{corev1.ResourceCPU: "8"}), []string{DefaultFlavor}},
		{"NVIDIA GPUs", list(map[corev1.ResourceName]string{NvidiaGPU: "1"}), []string{DefaultFlavor, NvidiaGPUFlavor}},
		{"both vendors", list(map[corev1.ResourceName]string{AMDGPU: "1", NvidiaGPU: "1"}), []string{DefaultFlavor, NvidiaGPUFlavor, AMDGPUFlavor}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, defaultFlavorNames(tc.c)); diff != "" {
				t.Errorf("flavors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaultClusterQueueSpec(t *testing.T) {
	cpuMem := func(cpu, mem string) kueue.ResourceGroup {
		return kueue.ResourceGroup{
			CoveredResources: []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory},
			Flavors: []kueue.FlavorQuotas{{Name: DefaultFlavor, Resources: []kueue.ResourceQuota{
				{Name: corev1.ResourceCPU, NominalQuota: resource.MustParse(cpu)},
				{Name: corev1.ResourceMemory, NominalQuota: resource.MustParse(mem)},
			}}},
		}
	}
	gpu := func(res corev1.ResourceName, flavor, n string) kueue.ResourceGroup {
		return kueue.ResourceGroup{
			CoveredResources: []corev1.ResourceName{res},
			Flavors: []kueue.FlavorQuotas{{Name: kueue.ResourceFlavorReference(flavor), Resources: []kueue.ResourceQuota{
				{Name: res, NominalQuota: resource.MustParse(n)},
			}}},
		}
	}
	cases := []struct {
		name string
		c    corev1.ResourceList
		want []kueue.ResourceGroup
	}{
		{"empty cluster: zero quota", corev1.ResourceList{}, []kueue.ResourceGroup{cpuMem("0", "0")}},
		{"CPU only", list(map[corev1.ResourceName]string{corev1.ResourceCPU: "96", corev1.ResourceMemory: "384Gi"}),
			[]kueue.ResourceGroup{cpuMem("96", "384Gi")}},
		{"one group per GPU flavor, NVIDIA first", list(map[corev1.ResourceName]string{
			corev1.ResourceCPU: "8", corev1.ResourceMemory: "1Gi", AMDGPU: "2", NvidiaGPU: "16",
		}), []kueue.ResourceGroup{cpuMem("8", "1Gi"), gpu(NvidiaGPU, NvidiaGPUFlavor, "16"), gpu(AMDGPU, AMDGPUFlavor, "2")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := defaultClusterQueueSpec(tc.c)
			if diff := cmp.Diff(tc.want, spec.ResourceGroups); diff != "" {
				t.Errorf("resource groups (-want +got):\n%s", diff)
			}
			wantPreemption := &kueue.ClusterQueuePreemption{WithinClusterQueue: "Never", ReclaimWithinCohort: "Never"}
			if diff := cmp.Diff(wantPreemption, spec.Preemption); diff != "" {
				t.Errorf("preemption (-want +got):\n%s", diff)
			}
			wantSel := &metav1.LabelSelector{MatchLabels: map[string]string{"kueue.openshift.io/managed": "true"}}
			if diff := cmp.Diff(wantSel, spec.NamespaceSelector); diff != "" {
				t.Errorf("namespaceSelector (-want +got):\n%s", diff)
			}
		})
	}
}
