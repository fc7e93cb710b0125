package kube

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/kueue-sim/kueue-sim/nodes"
)

// droppedTaintPrefixes are taints the node lifecycle and autoscalers put
// on and take off: not part of a node pool.
var droppedTaintPrefixes = []string{
	"node.kubernetes.io/", "node.cloudprovider.kubernetes.io/",
	"ToBeDeletedByClusterAutoscaler", "DeletionCandidateOfClusterAutoscaler",
}

// poolsOf groups nodes into pools of nodes alike: the same values of the
// kept label keys (the GPU product label, the ResourceFlavors' node labels,
// the Topologies' levels), the same allocatable resources and the same
// taints. Cordoned nodes are left out. A pool is named after the
// kueue-sim pool label when the nodes carry one, else the GPU product, else
// cpu; a name taken twice gets -2, -3, ...
func poolsOf(list []corev1.Node, keep map[string]bool) ([]nodes.Pool, []string) {
	type group struct {
		key  string
		pool nodes.Pool
	}
	groups := map[string]*group{}
	cordoned := 0
	for _, n := range list {
		if n.Spec.Unschedulable {
			cordoned++
			continue
		}
		labels := map[string]string{}
		for k, v := range n.Labels {
			if keep[k] && k != corev1.LabelHostname {
				labels[k] = v
			}
		}
		alloc := corev1.ResourceList{}
		for name, q := range n.Status.Allocatable {
			if !q.IsZero() {
				alloc[name] = q.DeepCopy()
			}
		}
		var taints []corev1.Taint
		for _, t := range n.Spec.Taints {
			if !droppedTaint(t.Key) {
				taints = append(taints, corev1.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
			}
		}
		sort.Slice(taints, func(i, j int) bool { return taintString(taints[i]) < taintString(taints[j]) })
		name := n.Labels[nodes.PoolLabel]
		if name == "" {
			name = n.Labels[nodes.GPUProductLabel]
		}
		if name == "" {
			name = "cpu"
		}
		key := strings.Join([]string{sanitize(name), labelsString(labels), requestsString(alloc), taintsString(taints)}, "|")
		g := groups[key]
		if g == nil {
			g = &group{key: key, pool: nodes.Pool{Name: sanitize(name), Allocatable: alloc, Taints: taints}}
			if len(labels) > 0 {
				g.pool.Labels = labels
			}
			groups[key] = g
		}
		g.pool.Count++
	}
	keys := sortedKeys(groups)
	pools := make([]nodes.Pool, 0, len(keys))
	taken := map[string]int{}
	for _, k := range keys {
		p := groups[k].pool
		if taken[p.Name]++; taken[p.Name] > 1 {
			p.Name = fmt.Sprintf("%s-%d", p.Name, taken[p.Name])
		}
		pools = append(pools, p)
	}
	var notes []string
	if cordoned > 0 {
		notes = append(notes, fmt.Sprintf("%s left out", plural(cordoned, "cordoned node")))
	}
	return pools, notes
}

func droppedTaint(key string) bool {
	for _, p := range droppedTaintPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

func labelsString(l map[string]string) string {
	parts := make([]string, 0, len(l))
	for _, k := range sortedKeys(l) {
		parts = append(parts, k+"="+l[k])
	}
	return strings.Join(parts, ",")
}

func taintString(t corev1.Taint) string { return t.Key + "=" + t.Value + ":" + string(t.Effect) }

func taintsString(ts []corev1.Taint) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = taintString(t)
	}
	return strings.Join(parts, ",")
}
