package settle

import (
	"time"

	"k8s.io/utils/clock"
)

// Kueue may keep workloads active while it cannot make progress (it
// requeues a preemptor at once while its targets are still being evicted,
// a workload that lost its nomination to another, and one whose pending
// message it rewrites at every try: see Busy.kueueChurn). When only that
// churn holds for the grace (Timings.TryGrace), with no decision and at
// least tryAttempts of Kueue's scheduling cycles ending inadmissible in
// the meantime (Kueue's own kueue_admission_attempts_total, so a slow
// machine that gave Kueue no cycle does not pass for a stuck one), the
// control plane is quiet.
const (
	kueueTryGrace = time.Second
	tryAttempts   = 3
)

// retryRule is the "Kueue retried without progress" rule over one wait's
// polls.
type retryRule struct {
	clock    clock.PassiveClock
	grace    time.Duration
	progress func() int64            // decisions observed; nil turns the rule off
	attempts func() (float64, error) // Kueue's inadmissible cycles; nil: grace alone decides
	gauge    func() (float64, error) // a fresh read of Kueue's active workloads
	// owed names anything going on besides Kueue trying its pending
	// workloads (Settler.owedBesidesKueue); nil: nothing is checked.
	owed func() (Busy, error)
	// fixedCycles: see Config.FixedPointCycles (0: off).
	fixedCycles float64

	since   time.Time // since when Kueue has had workloads to try and made no decision
	decided int64     // the decisions observed then
	tried   float64   // Kueue's inadmissible cycles then
	active  float64   // Kueue's active workloads, all ClusterQueues, then
	reason  Busy      // the busy reason that started it
	rev     string    // etcd's revision then
	noted   bool      // this wait has left its note
	// fixed tells whether the last move on was at a fixed point;
	// fixedRev and fixedTried are etcd's revision at the last write seen
	// while trying and Kueue's inadmissible cycles then.
	fixed      bool
	fixedRev   string
	fixedTried float64
}

// judge takes one poll's busy reason at etcd revision rev (lastActive is
// the settler's last read of Kueue's active workloads) and tells whether
// the wait moves on as if the poll were quiet; note is the event log's
// note on it, the first time only.
func (r *retryRule) judge(busy Busy, rev string, lastActive float64) (moved bool, note string, err error) {
	switch {
	case !busy.kueueChurn():
		r.since = time.Time{}
	case r.progress == nil:
	case r.since.IsZero() || r.progress() != r.decided:
		if busy.startsTrying() {
			r.since, r.decided, r.reason, r.rev, r.active = r.clock.Now(), r.progress(), busy, rev, lastActive
			if r.tried, err = r.inadmissibleCycles(); err != nil {
				return false, "", err
			}
			r.fixedRev, r.fixedTried = rev, r.tried
		} else {
			r.since = time.Time{}
		}
	case r.clock.Since(r.since) < r.grace && !r.atFixedPoint(rev):
	case !r.retried():
		// Kueue has not run tryAttempts cycles yet: on a loaded machine
		// time alone is no proof that it is stuck.
	default:
		// A poll busy with etcd's revision alone may hide work that others
		// owe: kube-controller-manager deleting the pods of a job Kueue
		// suspended for a preemptor that Kueue requeues meanwhile. Kueue
		// cycles without progress until those pods are gone, so neither
		// its cycles nor the grace say it is stuck.
		if r.owed != nil {
			b, err := r.owed()
			if err != nil || !b.IsZero() {
				return false, "", err
			}
		}
		// Before moving on, the gauge is read again, whatever made this
		// poll busy: while Kueue drains a long queue, each of its cycles
		// writes pending messages, so etcd's revision moves at most polls
		// and the gauge that shows the drain is seldom read.
		active, err := r.gauge()
		if err != nil {
			return false, "", err
		}
		if draining(r.active, active) {
			r.since, r.active = r.clock.Now(), active
			if r.tried, err = r.inadmissibleCycles(); err != nil {
				return false, "", err
			}
			return false, "", nil
		}
		if r.fixed = r.atFixedPoint(rev); r.fixed {
			return true, "", nil
		}
		if !r.noted {
			r.noted = true
			note = retriedNote(r.reason.String(), rev != r.rev)
		}
		return true, note, nil
	}
	return false, "", nil
}

// atFixedPoint tells whether Kueue is at a fixed point (see
// Config.FixedPointCycles): at least fixedCycles cycles that admitted
// nothing since the last write to etcd seen while it tried (a pending
// message Kueue writes once, say), and no write since. A revision it has
// not seen is that write: it starts the count over from this poll, so
// judge may ask twice in one poll and get the same answer.
func (r *retryRule) atFixedPoint(rev string) bool {
	if r.fixedCycles <= 0 || r.attempts == nil {
		return false
	}
	n, err := r.attempts()
	if err != nil {
		return false
	}
	if rev != r.fixedRev {
		r.fixedRev, r.fixedTried = rev, n
		return false
	}
	return n-r.fixedTried >= r.fixedCycles
}

// inadmissibleCycles reads how many of Kueue's scheduling cycles admitted
// nothing so far (0 when the rule cannot tell).
func (r *retryRule) inadmissibleCycles() (float64, error) {
	if r.attempts == nil {
		return 0, nil
	}
	return r.attempts()
}

// retried tells whether Kueue has run at least tryAttempts inadmissible
// cycles since it began trying.
func (r *retryRule) retried() bool {
	if r.attempts == nil {
		return true
	}
	n, err := r.attempts()
	return err == nil && n-r.tried >= tryAttempts
}

// retriedNote says what the settle saw when it moved on while Kueue kept
// retrying: reason is Kueue's pending gauge ("Kueue has 1 workloads to try
// in ClusterQueue training"), wrote whether etcd took writes meanwhile. It
// holds nothing that varies with machine speed: it goes into the event log.
func retriedNote(reason string, wrote bool) string {
	msg := reason + ", and its scheduling cycles admitted, preempted and evicted nothing"
	if wrote {
		msg += " while writing to the API (one cause: a pending workload whose message changes at every try, whose status Kueue then rewrites for as long as it stays pending, in a real cluster too)"
	}
	return msg + "; the step moved on, as nothing changes before simulated time does"
}

// draining tells whether Kueue's active queues shrank: fewer workloads are
// left to try, over all ClusterQueues, than when the wait last started over
// (was; now is a fresh read of the gauge). A count that goes back up and
// down again, as a retry loop's may, is no progress. Kueue tries one head
// per ClusterQueue a cycle, so a queue of many workloads it cannot admit
// takes as many cycles to set aside, each writing a pending message: that
// is progress, however long a slow machine takes, not a retry loop, and a
// step that moved on before the queues drained would leave Kueue working
// into the next instant, where that instant's arrivals and ends would meet
// a backlog whose size depends on machine speed.
//
// Two simpler checks miss drains, and each lets large baseline runs write
// different decisions.jsonl: comparing only the ClusterQueue the busy
// reason names (with many draining side by side, the named one empties
// first and the next one named holds more), and counting only polls whose
// busy reason is the gauge itself (a drain's pending-message writes keep
// etcd's revision moving, so most polls never read the gauge).
func draining(was, now float64) bool {
	return now < was
}
