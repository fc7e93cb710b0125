package engine

import "time"

// Kueue's Workload reconciler waits: for a workload's pods to be ready
// (waitForPodsReady's timeout), for the end of the requeuing back-off it
// set after evicting one (requeuingStrategy), for a maximum execution time
// to run out, for a finished Workload's retention; its LocalQueue
// reconciler waits for admission fair sharing's next usage sample. Each
// asks controller-runtime to reconcile again after a delay it measures on
// its clock. In a replay both are simulated (kueuesetup.WithInstantTimers):
// the reconcilers read the virtual clock, and their delayed reconciles
// wait on the clock's WakeAt timers.
//
// Such a wait is a time something happens, so it is an instant of the
// replay: at the end of each step the engine plans an instant at the
// clock's earliest wake (planWake), and the step there moves the clock,
// which hands the reconciles to Kueue, and settles what follows (an
// eviction, a workload back in its queue and maybe admitted). Where the
// instant also holds arrivals or ends of runs, the woken reconciles
// settle before those are applied (reconcilesFirst).
//
// A reconcile that ends without asking for a delay cancels the wait it
// asked for before (kueuesetup's queue), and an instant planned for
// cancelled waits alone is skipped (skipDeadWake): a workload whose pods
// became ready makes no instant at its PodsReady timeout.
//
// Kueue waits without end (a workload whose pods never start is evicted,
// backs off, is admitted and evicted again, for ever unless
// backoffLimitCount stops it), so wakes alone do not keep a run going:
// without an `end`, the run ends once only wakes are left in its
// timeline; with one, it runs to its end.

// planWake plans an instant at the clock's earliest wake unless one is
// planned there. A step calls it once it has settled (so that a run with
// an `end` goes on to a wait that is all its timeline holds), and the
// loop before each instant (a wait asked for between steps, in a
// realtime run).
func (r *Runner) planWake() {
	at, ok := r.clock.NextWake()
	if !ok || r.wakePlanned[at] {
		return
	}
	if r.wakePlanned == nil {
		r.wakePlanned = map[time.Duration]bool{}
	}
	r.wakePlanned[at] = true
	r.queue.push(&item{at: at, act: actWake})
}

// woken forgets the planned wakes among items, the instant's.
func (r *Runner) woken(items []*item) {
	for _, it := range items {
		if it.act == actWake {
			delete(r.wakePlanned, it.at)
		}
	}
}

// reconcilesFirst tells whether the reconciles the clock's move to an
// instant handed Kueue (fired) settle before the instant's items are
// applied: when the items hold something besides wakes (an arrival, an
// end of run, a requeue) and the move ended a wait of Kueue's Workload or
// LocalQueue reconciler, or, with admission fair sharing, a status batch
// (the LocalQueue reconciler it hands a queue to samples the queue's
// usage too, and a pending entry penalty makes every reconcile a
// sample). Those
// reconciles then read what they need as it stood when their wait ended:
// a usage sample reads the usage admitted until now, before an end of run
// at the same instant releases some of it. Run beside the instant's
// actions, they would race them, and what they read would depend on the
// machine's speed. Other status batches write status that decides
// nothing, so they go on beside the instant.
func (r *Runner) reconcilesFirst(f fired, items []*item) bool {
	others := false
	for _, it := range items {
		if it.act != actWake {
			others = true
			break
		}
	}
	return others && (f.wakes > 0 || (r.t.AdmissionFairSharing && f.timers > 0))
}

// skipDeadWake drops the next instant, and reports whether it did, when
// it holds only wakes and every timer it was planned for was cancelled
// since (Kueue's reconciler no longer needed to look again then).
func (r *Runner) skipDeadWake() bool {
	if !r.queue.onlyWakesNext() {
		return false
	}
	t := r.queue.next()
	if at, ok := r.clock.NextWake(); ok && at <= t {
		return false
	}
	r.woken(r.queue.popAt(t))
	r.planWake()
	return true
}

// onlyWakesLeft tells whether the run is over but for Kueue's waits (see
// above).
func (r *Runner) onlyWakesLeft() bool { return r.s.End == nil && r.queue.onlyWakes() }
