package kueuesetup

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// simulatedTimeManager is the manager Kueue's core controllers are set up
// on: it passes everything through to the real one, and on Add puts the
// controllers it recognises on simulated time: the status controllers'
// batching (status_batch.go) and the Workload and LocalQueue reconcilers'
// clock and waits (workload_timers.go).
type simulatedTimeManager struct {
	ctrl.Manager
	timers  SimulatedTimers // nil: status batching stays on wall time
	clock   clock.Clock     // the Workload and LocalQueue reconcilers', with wakes
	wakes   InstantTimers   // nil: those reconcilers stay on wall time
	slow    time.Duration   // the wall time those reconcilers sleep first (slow_reconcilers.go)
	batched map[string]bool // the status controllers given a batching queue
	clocked map[string]bool // the reconcilers given the clock and a waiting queue
}

func newSimulatedTimeManager(m ctrl.Manager, timers SimulatedTimers, c clock.Clock, wakes InstantTimers) simulatedTimeManager {
	return simulatedTimeManager{Manager: m, timers: timers, clock: c, wakes: wakes, batched: map[string]bool{}, clocked: map[string]bool{}}
}

func (m simulatedTimeManager) Add(r manager.Runnable) error {
	if m.wakes != nil {
		// First, so that the status batching's queue wraps this one and
		// takes the batch period before it.
		name, err := simulateReconcilerTimers(r, m.clock, m.wakes)
		if err != nil {
			return err
		}
		if name != "" {
			m.clocked[name] = true
			if m.slow > 0 {
				if err := slowDown(r, m.slow); err != nil {
					return err
				}
			}
		}
	}
	if m.timers != nil {
		name, err := simulateQueueDelays(r, m.timers)
		if err != nil {
			return err
		}
		if name != "" {
			m.batched[name] = true
		}
	}
	return m.Manager.Add(r)
}

// checkWrapped fails if a controller every Kueue sets up went by without
// being recognised: controller-runtime's controller changed shape, and
// its delays would silently stay on wall time.
func (m simulatedTimeManager) checkWrapped() error {
	var missing []string
	for name, required := range statusBatchControllers {
		if m.timers != nil && required && !m.batched[name] {
			missing = append(missing, name)
		}
	}
	for name := range clockedReconcilers {
		if m.wakes != nil && !m.clocked[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("putting Kueue's controllers on simulated time: no controller named %s was added with a Name and NewQueue field kueue-sim recognises (update sim/kueuesetup/status_batch.go or workload_timers.go for this controller-runtime)", strings.Join(missing, ", "))
}
