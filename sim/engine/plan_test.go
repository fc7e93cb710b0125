package engine

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// An empirical duration draws one of its run times per workload, with the
// seed: every run time drawn is listed, and seeds draw differently.
func TestPlanDrawsEmpiricalDurations(t *testing.T) {
	runTimes := []time.Duration{20 * time.Minute, time.Hour, 3 * time.Hour}
	var empirical []metav1.Duration
	for _, d := range runTimes {
		empirical = append(empirical, metav1.Duration{Duration: d})
	}
	s := &scenarios.Scenario{Workloads: []scenarios.Stream{{
		Name: "train", Count: ptr.To[int32](20), Duration: &scenarios.Distribution{Empirical: empirical},
	}}}
	draws := func(seed int64) []time.Duration {
		plan, err := Plan(s, seed)
		if err != nil {
			t.Fatal(err)
		}
		var out []time.Duration
		for _, a := range plan {
			if !slices.Contains(runTimes, a.Duration) {
				t.Errorf("seed %d drew %s, not one of %v", seed, a.Duration, runTimes)
			}
			out = append(out, a.Duration)
		}
		return out
	}
	one, again, other := draws(1), draws(1), draws(2)
	if !slices.Equal(one, again) {
		t.Errorf("seed 1 drew %v, then %v", one, again)
	}
	if slices.Equal(one, other) {
		t.Errorf("seeds 1 and 2 both drew %v", one)
	}
}
