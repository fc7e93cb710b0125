package kueuesetup

import (
	"context"
	"math"
	"time"
	_ "unsafe" // go:linkname, for Kueue's scheduling cycle (see below)

	"k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/kueue/pkg/scheduler"
	kwait "sigs.k8s.io/kueue/pkg/util/wait"
)

// Kueue's scheduler runs its scheduling cycles in a loop of its own
// (Scheduler.Start: wait.UntilWithBackoff(ctx, s.schedule)). After a cycle
// that admits nothing it sleeps on the wall clock before the next one, 1 ms
// doubling to 10 ms, so that a queue of heads nobody can admit does not
// busy-loop. The sleep takes a real-clock timer and has no option; in the
// 15k baseline Kueue's scheduler ran 25,861 such cycles, and a run with the
// sleep set to 0 took 568 s against 717–783 s (docs/performance.md,
// "Scheduling-cycle loop").
//
// In a replay the gate does that job: it holds the scheduler between
// instants, and pauses it after a cycle that evicts until the control plane
// is quiet. Within an instant cycles take no simulated time, and the sleep
// only spends wall time (a quarter of the 15k replay). So a replay runs the
// same cycle, Kueue's own (*Scheduler).schedule reached by its linker name,
// in a loop that goes on at once after a cycle while the engine says so
// (SchedulerGate.NoBackoff) and backs off as Kueue does otherwise (sim up,
// sim serve, realtime runs). The cycle is Kueue's code unchanged: what it
// takes, decides and writes is the same; only the wait between two cycles
// differs. A Kueue whose scheduler has no schedule method fails to link; the
// linker does not check a pulled symbol's type, so
// TestCycleLoopRunsKueuesCycle runs Kueue's cycle through kueueCycle and
// fails if its signature changed.

//go:linkname kueueCycle sigs.k8s.io/kueue/pkg/scheduler.(*Scheduler).schedule
func kueueCycle(s *scheduler.Scheduler, ctx context.Context) kwait.SpeedSignal

// Kueue's backoff between cycles that admit nothing (pkg/util/wait).
const (
	cycleBackoffInitial = time.Millisecond
	cycleBackoffCap     = 10 * time.Millisecond
)

// cycleLoop is Kueue's scheduler as a manager runnable whose loop the gate
// can run without Kueue's wall-clock backoff.
type cycleLoop struct {
	*scheduler.Scheduler
	gate  *SchedulerGate
	cycle func(context.Context) kwait.SpeedSignal
	clock clock.Clock // Kueue's backoff is on the real clock
}

func newCycleLoop(s *scheduler.Scheduler, gate *SchedulerGate) *cycleLoop {
	return &cycleLoop{Scheduler: s, gate: gate, clock: clock.RealClock{},
		cycle: func(ctx context.Context) kwait.SpeedSignal { return kueueCycle(s, ctx) }}
}

// Start runs the loop, as Kueue's Start does, with the same logger name.
func (l *cycleLoop) Start(ctx context.Context) error {
	ctx = ctrl.LoggerInto(ctx, ctrl.LoggerFrom(ctx).WithName("scheduler"))
	go l.run(ctx)
	return nil
}

func (l *cycleLoop) run(ctx context.Context) {
	defer runtime.HandleCrash()
	var backoff *wait.Backoff
	var timer clock.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for ctx.Err() == nil {
		l.gate.waitsForPodsReady.clear() // a cycle that starts waits for nothing yet
		if l.cycle(ctx) == kwait.KeepGoing || l.gate.noBackoff.Load() {
			backoff = nil
			continue
		}
		if backoff == nil {
			backoff = &wait.Backoff{Duration: cycleBackoffInitial, Factor: 2, Steps: math.MaxInt, Cap: cycleBackoffCap}
		}
		if timer == nil {
			timer = l.clock.NewTimer(backoff.Step())
		} else {
			timer.Reset(backoff.Step())
		}
		select {
		case <-ctx.Done():
			return
		case <-timer.C():
		}
	}
}
