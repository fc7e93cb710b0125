package engine

import (
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// ShareReader reads the weighted share Kueue's fair sharing ranks a
// ClusterQueue (or, with cohort set, a Cohort) by, from Kueue's own state,
// as Kueue writes it to status.fairSharing.weightedShare; false when fair
// sharing is off or Kueue does not know the name (kueuesetup.Kueue's
// WeightedShare).
type ShareReader func(name string, cohort bool) (int64, bool)

// shareObserver records Kueue's weighted shares once each step has
// settled: what Kueue's scheduler would rank by at that simulated instant.
// It reads them from Kueue's scheduler cache in process, never computes
// them. (The same numbers reach status.fairSharing.weightedShare, but
// Kueue batches ClusterQueue status writes for a second, simulated in a
// replay, so a status read at the end of a step could be a step late.) Share events are
// observations, not decisions.
type shareObserver struct {
	clock   *VirtualClock
	read    ShareReader
	keys    []shareKey
	taken   map[shareKey]int64
	enabled bool
}

// shareKey names a ClusterQueue or a Cohort.
type shareKey struct {
	name   string
	cohort bool
}

// newShareObserver observes the scenario's ClusterQueues and Cohorts
// (those defined and those only named by a ClusterQueue); read nil
// observes nothing.
func newShareObserver(clock *VirtualClock, read ShareReader, s *scenarios.Scenario) *shareObserver {
	o := &shareObserver{clock: clock, read: read, taken: map[shareKey]int64{}, enabled: read != nil}
	seen := map[shareKey]bool{}
	add := func(k shareKey) {
		if k.name != "" && !seen[k] {
			seen[k] = true
			o.keys = append(o.keys, k)
		}
	}
	for _, cq := range s.ClusterQueueCohorts() {
		add(shareKey{name: cq.Name})
		add(shareKey{name: cq.Value, cohort: true})
	}
	for _, c := range s.CohortParents() {
		add(shareKey{name: c.Name, cohort: true})
		add(shareKey{name: c.Value, cohort: true})
	}
	sort.Slice(o.keys, func(i, j int) bool {
		if o.keys[i].cohort != o.keys[j].cohort {
			return !o.keys[i].cohort
		}
		return o.keys[i].name < o.keys[j].name
	})
	return o
}

// take returns a Share event for every ClusterQueue, then Cohort, whose
// weighted share changed since the last take (all of them the first
// time), in name order, stamped with the simulated time.
func (o *shareObserver) take() []record.Event {
	if !o.enabled {
		return nil
	}
	t := record.Duration(o.clock.Elapsed())
	now := time.Now()
	var out []record.Event
	for _, k := range o.keys {
		share, ok := o.read(k.name, k.cohort)
		if !ok {
			continue
		}
		if old, seen := o.taken[k]; seen && old == share {
			continue
		}
		o.taken[k] = share
		e := record.Event{T: t, Wall: &now, Type: record.TypeShare, WeightedShare: &share}
		if k.cohort {
			e.Cohort = k.name
		} else {
			e.ClusterQueue = k.name
		}
		out = append(out, e)
	}
	return out
}
