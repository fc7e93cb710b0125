package nodes

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// DefaultPools are the nodes `sim up` makes when given no node-pool file: two
// A100 nodes with 8 GPUs each and two CPU-only nodes.
func DefaultPools() []Pool {
	return []Pool{
		{
			Name: "a100", Count: 2,
			Labels: map[string]string{GPUProductLabel: "NVIDIA-A100-SXM4-80GB"},
			Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("96"),
				corev1.ResourceMemory: resource.MustParse("1Ti"),
				GPUResource:           resource.MustParse("8"),
			},
		},
		{
			Name: "cpu", Count: 2,
			Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("32"),
				corev1.ResourceMemory: resource.MustParse("128Gi"),
			},
		},
	}
}
