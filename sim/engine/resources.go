package engine

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
)

func sortedResources[V any](m map[corev1.ResourceName]V) []corev1.ResourceName {
	out := make([]corev1.ResourceName, 0, len(m))
	for r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// podResources turns a stream's per-pod requests into container resources:
// requests as given, and limits equal to requests for extended resources
// (such as nvidia.com/gpu), which Kubernetes requires.
func podResources(req corev1.ResourceList) corev1.ResourceRequirements {
	rr := corev1.ResourceRequirements{Requests: req.DeepCopy(), Limits: corev1.ResourceList{}}
	for name, q := range req {
		if name != corev1.ResourceCPU && name != corev1.ResourceMemory && name != corev1.ResourceEphemeralStorage {
			rr.Limits[name] = q.DeepCopy()
		}
	}
	return rr
}
