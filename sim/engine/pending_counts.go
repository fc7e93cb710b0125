package engine

import (
	"fmt"
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// PendingReader reads a ClusterQueue's pending workloads, active and
// inadmissible, as Kueue's kueue_pending_workloads gauge published them
// once the step settled; false when Kueue has published none for it
// (kueuesetup.Kueue's PendingCounts).
type PendingReader func(clusterQueue string) (kueuesetup.PendingCounts, bool, error)

// pendingObserver records Kueue's pending-workload counts once each step
// has settled, as Kueue's integration tests assert them
// (util.ExpectPendingWorkloadsMetric). It reads Kueue's own gauge, never
// counts workloads itself. A step ends with Kueue's scheduler held, and a
// held ClusterQueue's gauge counts every pending workload as inadmissible;
// the reader returns the gauge as Kueue published it before the hold (see
// kueuesetup.SchedulerGate.PendingCounts), so the counts are Kueue's view
// of the settled instant. Count events are observations, not decisions.
type pendingObserver struct {
	clock   *VirtualClock
	read    PendingReader
	names   []string
	taken   map[string]kueuesetup.PendingCounts
	enabled bool
}

// newPendingObserver observes the scenario's ClusterQueues; read nil
// observes nothing.
func newPendingObserver(clock *VirtualClock, read PendingReader, s *scenarios.Scenario) *pendingObserver {
	o := &pendingObserver{clock: clock, read: read, taken: map[string]kueuesetup.PendingCounts{}, enabled: read != nil}
	seen := map[string]bool{}
	for _, cq := range s.ClusterQueueCohorts() {
		if cq.Name != "" && !seen[cq.Name] {
			seen[cq.Name] = true
			o.names = append(o.names, cq.Name)
		}
	}
	sort.Strings(o.names)
	return o
}

// take returns a PendingCounts event for every ClusterQueue whose counts
// changed since the last take (every one Kueue reports, the first time),
// in name order, stamped with the simulated time. A nil observer, as in a
// Runner a test builds by hand, observes nothing.
func (o *pendingObserver) take() ([]record.Event, error) {
	if o == nil || !o.enabled {
		return nil, nil
	}
	t := record.Duration(o.clock.Elapsed())
	now := time.Now()
	var out []record.Event
	for _, name := range o.names {
		c, ok, err := o.read(name)
		if err != nil {
			return nil, fmt.Errorf("reading Kueue's pending workloads of ClusterQueue %s: %w", name, err)
		}
		if !ok {
			continue
		}
		if old, seen := o.taken[name]; seen && old == c {
			continue
		}
		o.taken[name] = c
		out = append(out, record.Event{T: t, Wall: &now, Type: record.TypePendingCounts, ClusterQueue: name,
			Counts: &record.PendingCounts{Active: c.Active, Inadmissible: c.Inadmissible}})
	}
	return out, nil
}
