package bench

import (
	"math"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Scale multiplies every stream's count by factor (at least one workload
// per stream) and drops the expectations, whose numbers assume the
// original counts. It returns the number of workloads.
func Scale(s *scenarios.Scenario, factor float64) int {
	total := 0
	for i := range s.Workloads {
		w := &s.Workloads[i]
		n := int32(max(1, math.Round(float64(*w.Count)*factor)))
		w.Count = &n
		total += int(n)
	}
	s.Expectations = nil
	return total
}
