package engine

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// brief is what a test compares of a Share event.
type brief struct {
	T            time.Duration
	ClusterQueue string
	Cohort       string
	Share        int64
}

// take reports what changed since the last take, ClusterQueues before
// Cohorts, each by name, with the step's simulated time; names Kueue does
// not know and a run without fair sharing report nothing.
func TestShareObserverTakesChanges(t *testing.T) {
	s := &scenarios.Scenario{Queues: scenarios.Queues{
		ClusterQueues: []scenarios.ClusterQueue{{Name: "team-b", Cohort: "gpus"}, {Name: "team-a", Cohort: "gpus"}, {Name: "gone"}},
		Cohorts:       []scenarios.Cohort{{Name: "gpus", Parent: "org"}},
	}}
	shares := map[shareKey]int64{{name: "team-a"}: 500, {name: "team-b"}: 0, {name: "gpus", cohort: true}: 0, {name: "org", cohort: true}: 0}
	read := func(name string, cohort bool) (int64, bool) {
		v, ok := shares[shareKey{name, cohort}]
		return v, ok
	}
	clock := &VirtualClock{}
	o := newShareObserver(clock, read, s)
	for _, step := range []struct {
		name   string
		at     time.Duration
		change func()
		want   []brief
	}{
		{"first take: everything Kueue knows", 0, func() {}, []brief{
			{0, "team-a", "", 500}, {0, "team-b", "", 0}, {0, "", "gpus", 0}, {0, "", "org", 0}}},
		{"nothing changed", time.Minute, func() {}, nil},
		{"one changes", 2 * time.Minute, func() { shares[shareKey{name: "team-b"}] = 250 }, []brief{{2 * time.Minute, "team-b", "", 250}}},
	} {
		clock.Set(step.at)
		step.change()
		var got []brief
		for _, e := range o.take() {
			if e.Type != record.TypeShare || e.Wall == nil || e.WeightedShare == nil {
				t.Fatalf("%s: not a complete Share event: %+v", step.name, e)
			}
			got = append(got, brief{e.T.D(), e.ClusterQueue, e.Cohort, *e.WeightedShare})
		}
		if diff := cmp.Diff(step.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", step.name, diff)
		}
	}
	if evs := newShareObserver(clock, nil, s).take(); len(evs) != 0 {
		t.Errorf("without a reader: %v", evs)
	}
}
