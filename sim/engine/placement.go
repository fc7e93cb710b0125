package engine

import (
	"context"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/constants"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// placement describes a bound pod, and whether its node carries the labels
// of the flavors Kueue assigned to its pod set.
func (o *observer) placement(st *wlState, pod *corev1.Pod) record.Event {
	e := record.Event{Type: record.TypePlaced, Pod: pod.Name, Node: pod.Spec.NodeName}
	var node corev1.Node
	if err := o.cache.Get(context.Background(), types.NamespacedName{Name: pod.Spec.NodeName}, &node); err != nil {
		e.Message = "node not found: " + err.Error()
		return e
	}
	e.Pool = node.Labels[nodes.PoolLabel]
	if st.admission == nil {
		return e
	}
	psa := podSetOf(st.admission, pod.Labels[constants.PodSetLabel])
	if psa == nil {
		return e
	}
	match := true
	for _, fl := range sortedFlavors(psa.Flavors) {
		for k, v := range o.flavors[fl] {
			if node.Labels[k] != v {
				match = false
				e.Message = fmt.Sprintf("flavor %s needs %s=%s, node has %q", fl, k, v, node.Labels[k])
			}
		}
	}
	e.FlavorMatch = &match
	return e
}

func podSetOf(a *kueue.Admission, name string) *kueue.PodSetAssignment {
	if len(a.PodSetAssignments) == 1 {
		return &a.PodSetAssignments[0]
	}
	for i := range a.PodSetAssignments {
		if string(a.PodSetAssignments[i].Name) == name {
			return &a.PodSetAssignments[i]
		}
	}
	return nil
}

func sortedFlavors(m map[corev1.ResourceName]kueue.ResourceFlavorReference) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range m {
		if !seen[string(f)] {
			seen[string(f)] = true
			out = append(out, string(f))
		}
	}
	sort.Strings(out)
	return out
}

// admissionUsage sums an admission's resource usage per flavor.
func admissionUsage(a *kueue.Admission) (map[string]string, map[string]map[string]float64) {
	flavors := map[string]string{}
	usage := map[string]map[string]float64{}
	for _, ps := range a.PodSetAssignments {
		for r, f := range ps.Flavors {
			flavors[string(r)] = string(f)
			q, ok := ps.ResourceUsage[r]
			if !ok {
				continue
			}
			if usage[string(f)] == nil {
				usage[string(f)] = map[string]float64{}
			}
			usage[string(f)][string(r)] += q.AsApproximateFloat64()
		}
	}
	return flavors, usage
}
