package reconciler

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// Names of the default ResourceFlavors and the resources each one covers.
const (
	DefaultFlavor   = "default-flavor"
	NvidiaGPUFlavor = "nvidia-gpu-flavor"
	AMDGPUFlavor    = "amd-gpu-flavor"

	NvidiaGPU corev1.ResourceName = "nvidia.com/gpu"
	AMDGPU    corev1.ResourceName = "amd.com/gpu"
)

// gpuFlavors maps each GPU resource to its default flavor, in the order the
// ClusterQueue lists them.
var gpuFlavors = []struct {
	resource corev1.ResourceName
	flavor   string
}{
	{NvidiaGPU, NvidiaGPUFlavor},
	{AMDGPU, AMDGPUFlavor},
}

// capacity sums the allocatable cpu, memory, nvidia.com/gpu and amd.com/gpu
// of the nodes not being deleted. Resources no node has are absent.
func capacity(nodes []corev1.Node) corev1.ResourceList {
	sum := corev1.ResourceList{}
	names := []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, NvidiaGPU, AMDGPU}
	for i := range nodes {
		if nodes[i].DeletionTimestamp != nil {
			continue
		}
		for _, name := range names {
			q, ok := nodes[i].Status.Allocatable[name]
			if !ok || q.IsZero() {
				continue
			}
			total := sum[name]
			total.Add(q)
			sum[name] = total
		}
	}
	return sum
}

// defaultFlavorNames lists the default flavors for a cluster of this
// capacity: default-flavor always, each GPU flavor when some node has its
// resource.
func defaultFlavorNames(c corev1.ResourceList) []string {
	names := []string{DefaultFlavor}
	for _, g := range gpuFlavors {
		if q, ok := c[g.resource]; ok && !q.IsZero() {
			names = append(names, g.flavor)
		}
	}
	return names
}

// defaultClusterQueueSpec is the spec of the default ClusterQueue for a
// cluster of this capacity: non-preemptive, selecting Kueue-managed
// namespaces, with one resource group per flavor whose quota is the
// cluster's allocatable total.
func defaultClusterQueueSpec(c corev1.ResourceList) kueue.ClusterQueueSpec {
	quota := func(name corev1.ResourceName) resource.Quantity {
		q, ok := c[name]
		if !ok {
			return resource.MustParse("0")
		}
		return q.DeepCopy()
	}
	groups := []kueue.ResourceGroup{{
		CoveredResources: []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory},
		Flavors: []kueue.FlavorQuotas{{
			Name: DefaultFlavor,
			Resources: []kueue.ResourceQuota{
				{Name: corev1.ResourceCPU, NominalQuota: quota(corev1.ResourceCPU)},
				{Name: corev1.ResourceMemory, NominalQuota: quota(corev1.ResourceMemory)},
			},
		}},
	}}
	for _, g := range gpuFlavors {
		if q, ok := c[g.resource]; !ok || q.IsZero() {
			continue
		}
		groups = append(groups, kueue.ResourceGroup{
			CoveredResources: []corev1.ResourceName{g.resource},
			Flavors: []kueue.FlavorQuotas{{
				Name:      kueue.ResourceFlavorReference(g.flavor),
				Resources: []kueue.ResourceQuota{{Name: g.resource, NominalQuota: quota(g.resource)}},
			}},
		})
	}
	return kueue.ClusterQueueSpec{
		ResourceGroups: groups,
		NamespaceSelector: &metav1.LabelSelector{
			MatchLabels: map[string]string{dscv1.KueueManagedLabel: "true"},
		},
		Preemption: &kueue.ClusterQueuePreemption{
			WithinClusterQueue:  kueue.PreemptionPolicyNever,
			ReclaimWithinCohort: kueue.PreemptionPolicyNever,
		},
	}
}
