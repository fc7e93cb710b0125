package scenarios

import corev1 "k8s.io/api/core/v1"

// PodResources turns a stream's per-pod requests into the resources of the
// container that asks for them: requests as given, and limits equal to
// requests for extended resources (such as nvidia.com/gpu), which
// Kubernetes requires of them.
func PodResources(req corev1.ResourceList) corev1.ResourceRequirements {
	rr := corev1.ResourceRequirements{Requests: req.DeepCopy(), Limits: corev1.ResourceList{}}
	for name, q := range req {
		if name != corev1.ResourceCPU && name != corev1.ResourceMemory && name != corev1.ResourceEphemeralStorage {
			rr.Limits[name] = q.DeepCopy()
		}
	}
	return rr
}
