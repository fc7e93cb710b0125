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
