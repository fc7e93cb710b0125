package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// countsBrief is what a test compares of a PendingCounts event.
type countsBrief struct {
	T                    time.Duration
	ClusterQueue         string
	Active, Inadmissible int
}

// take reports the ClusterQueues whose counts changed since the last take,
// by name, with the step's simulated time; ClusterQueues Kueue reports
// nothing for and a run without a reader report nothing; a reader's error
// stops the take, naming the ClusterQueue.
func TestPendingObserverTakesChanges(t *testing.T) {
	s := &scenarios.Scenario{Queues: scenarios.Queues{
		ClusterQueues: []scenarios.ClusterQueue{{Name: "team-b", Cohort: "gpus"}, {Name: "team-a", Cohort: "gpus"}, {Name: "gone"}},
	}}
	counts := map[string]kueuesetup.PendingCounts{"team-a": {Active: 1}, "team-b": {}}
	var fail error
	read := func(cq string) (kueuesetup.PendingCounts, bool, error) {
		if fail != nil {
			return kueuesetup.PendingCounts{}, false, fail
		}
		c, ok := counts[cq]
		return c, ok, nil
	}
	clock := &VirtualClock{}
	o := newPendingObserver(clock, read, s)
	for _, step := range []struct {
		name   string
		at     time.Duration
		change func()
		want   []countsBrief
	}{
		{"first take: every ClusterQueue Kueue reports", 0, func() {}, []countsBrief{{0, "team-a", 1, 0}, {0, "team-b", 0, 0}}},
		{"nothing changed", time.Minute, func() {}, nil},
		{"one moves aside", 2 * time.Minute, func() { counts["team-a"] = kueuesetup.PendingCounts{Inadmissible: 1} },
			[]countsBrief{{2 * time.Minute, "team-a", 0, 1}}},
		{"both change", 3 * time.Minute, func() {
			counts["team-a"], counts["team-b"] = kueuesetup.PendingCounts{}, kueuesetup.PendingCounts{Active: 2, Inadmissible: 3}
		}, []countsBrief{{3 * time.Minute, "team-a", 0, 0}, {3 * time.Minute, "team-b", 2, 3}}},
	} {
		clock.Set(step.at)
		step.change()
		evs, err := o.take()
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		var got []countsBrief
		for _, e := range evs {
			if e.Type != record.TypePendingCounts || e.Wall == nil || e.Counts == nil || record.IsDecision(e.Type) {
				t.Fatalf("%s: not a complete PendingCounts observation: %+v", step.name, e)
			}
			got = append(got, countsBrief{e.T.D(), e.ClusterQueue, e.Counts.Active, e.Counts.Inadmissible})
		}
		if diff := cmp.Diff(step.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", step.name, diff)
		}
	}
	fail = errors.New("gauge gone")
	if _, err := o.take(); !errors.Is(err, fail) {
		t.Errorf("a failing reader: %v, want it wrapped", err)
	}
	if evs, err := newPendingObserver(clock, nil, s).take(); len(evs) != 0 || err != nil {
		t.Errorf("without a reader: %v, %v", evs, err)
	}
	if evs, err := (*pendingObserver)(nil).take(); len(evs) != 0 || err != nil {
		t.Errorf("a nil observer: %v, %v", evs, err)
	}
}
