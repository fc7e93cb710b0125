package bench

import (
	"reflect"
	"testing"
)

func TestCyclesSince(t *testing.T) {
	for name, tc := range map[string]struct {
		before, after, want map[string]float64
	}{
		"nothing before": {nil, map[string]float64{"success": 3}, map[string]float64{"success": 3}},
		"differences":    {map[string]float64{"success": 2, "inadmissible": 5}, map[string]float64{"success": 4, "inadmissible": 5}, map[string]float64{"success": 2}},
		"none":           {map[string]float64{"success": 2}, map[string]float64{"success": 2}, map[string]float64{}},
	} {
		t.Run(name, func(t *testing.T) {
			if got := cyclesSince(tc.before, tc.after); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("cyclesSince(%v, %v) = %v, want %v", tc.before, tc.after, got, tc.want)
			}
		})
	}
}

func TestCyclesPerWorkload(t *testing.T) {
	f := Figures{Workloads: 4, KueueCycles: map[string]float64{"success": 2, "inadmissible": 6}}
	if got := f.CyclesPerWorkload(); got != 2 {
		t.Errorf("CyclesPerWorkload() = %v, want 2", got)
	}
}
