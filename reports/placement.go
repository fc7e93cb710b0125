package reports

import (
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// PoolPlacement counts the pods kube-scheduler bound to one node pool.
type PoolPlacement struct {
	// Pool is the node pool; "" for nodes outside the scenario's pools.
	Pool string `json:"pool"`
	Pods int    `json:"pods"`
	// ByFlavor counts the pods by the flavor Kueue assigned their workload.
	ByFlavor map[string]int `json:"byFlavor"`
	// OffFlavor counts pods on nodes without their flavor's labels.
	OffFlavor int `json:"offFlavor"`
}

func placement(run *record.Run) []PoolPlacement {
	byPool := map[string]*PoolPlacement{}
	for _, w := range run.Workloads {
		for _, p := range w.Placements {
			pp := byPool[p.Pool]
			if pp == nil {
				pp = &PoolPlacement{Pool: p.Pool, ByFlavor: map[string]int{}}
				byPool[p.Pool] = pp
			}
			pp.Pods++
			if f := flavorAt(w, p); f != "" {
				pp.ByFlavor[f]++
			}
			if p.FlavorMatch != nil && !*p.FlavorMatch {
				pp.OffFlavor++
			}
		}
	}
	out := []PoolPlacement{}
	for _, pool := range sortedKeys(byPool) {
		out = append(out, *byPool[pool])
	}
	return out
}

// flavorAt is the flavor of w's latest admission at or before the
// placement: the one its GPU (or else any) resource was assigned.
func flavorAt(w *record.Workload, p record.Event) string {
	var flavors map[string]string
	for _, a := range w.Admissions {
		if a.T.D() <= p.T.D() {
			flavors = a.Flavors
		}
	}
	if f, ok := flavors["nvidia.com/gpu"]; ok {
		return f
	}
	for _, res := range sortedKeys(flavors) {
		return flavors[res]
	}
	return ""
}
