package kueuesetup

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
)

// SchedulerGate holds Kueue's scheduler between two scheduling cycles, so
// that everything that happens at one simulated instant (arrivals, ends of
// runs) is in Kueue's queues before Kueue schedules any of it, as it would
// be if those things happened at once.
//
// Kueue's scheduler starts a cycle by taking the head of every active
// ClusterQueue from the queue manager, and blocks while there is none. The
// queue manager asks a StatusChecker (Kueue's scheduler cache) whether a
// ClusterQueue is active; the gate stands between the two and answers "no"
// for every ClusterQueue while it is held. Workloads are still queued,
// ordered and counted while the gate is held; the cycle already running
// when Hold is called finishes. Kueue's pending-workloads gauge counts a
// held ClusterQueue's workloads as inadmissible, as it does for an inactive
// one, and is recomputed on Hold and on Release; PendingCounts reads
// Kueue's own numbers, as they stood before the hold.
//
// The gate also runs an instant's cycles in lock-step where it matters: a
// cycle that evicts workloads (preemption) leaves work behind it (Kueue's
// Workload controller releases the victims' quota, their jobs stop) that
// the next cycle would otherwise race with, so its outcome would depend on
// machine speed. After such a cycle the gate pauses the scheduler until
// Resume, which the engine calls once the control plane is quiet again.
// The scheduler's writes reach the gate through Client, the client Kueue's
// scheduler is built with.
type SchedulerGate struct {
	checker qcache.StatusChecker
	queues  *qcache.Manager

	// evictions counts the evictions Kueue's scheduler has written.
	evictions atomic.Int64

	// looked is signalled when a held or paused scheduler looks at its
	// queues for heads (see Park).
	looked chan struct{}

	mu       sync.Mutex
	held     bool
	lockStep bool // pause after evicting cycles (see LockStep)
	paused   bool
	seen     int64 // evictions when the scheduler last went on

	// published is Kueue's pending gauge as it stood when Hold last held
	// a scheduler that was going (see PendingCounts), nil when it was
	// paused then; publishedErr is why it could not be read.
	published    map[string]PendingCounts
	publishedErr error

	noBackoff atomic.Bool // cycles follow one another at once (see NoBackoff)

	// notAllReady tells whether an admitted workload's pods are not all
	// ready (Kueue's cache), nil unless waitForPodsReady blocks admission;
	// waitsForPodsReady is the entry the scheduler last wrote waits for
	// them: set by that write, cleared by the entry's next write (its
	// admission once the scheduler wakes) or the next cycle (see Park).
	notAllReady       func() bool
	waitsForPodsReady podsReadyWaiter
}

// podsReadyWaitMessage is the pending message Kueue's scheduler writes on
// an entry just before it blocks until every admitted workload's pods are
// ready (waitForPodsReady.blockAdmission), in every release kueue-sim runs.
const podsReadyWaitMessage = "waiting for all admitted workloads to be in PodsReady condition"

// parkPoll is how often Park looks whether the scheduler is blocked on
// pods becoming ready.
const parkPoll = 2 * time.Millisecond

// NoBackoff(true) skips Kueue's wall-clock sleep after a cycle that admits
// nothing (cycle_loop.go); NoBackoff(false) restores it. A replay on the
// virtual clock skips it, since the gate holds the scheduler between
// instants; realtime runs and sim up keep Kueue's sleep.
func (g *SchedulerGate) NoBackoff(on bool) { g.noBackoff.Store(on) }

// Evictions counts the evictions Kueue's scheduler has written so far.
func (g *SchedulerGate) Evictions() int64 { return g.evictions.Load() }

// LockStep turns the pause after evicting cycles on or off (default off:
// Kueue then schedules as it does on its own, e.g. under sim up). A
// replay turns it on, since its settle calls Resume; turning it off lets
// a paused scheduler go on.
func (g *SchedulerGate) LockStep(on bool) {
	var was bool
	g.change(func() {
		was = g.paused
		g.lockStep, g.paused, g.seen = on, false, g.evictions.Load()
	})
	if was {
		g.wake()
	}
}

var _ qcache.StatusChecker = (*SchedulerGate)(nil)

// ClusterQueueActive is the StatusChecker the queue manager calls. The
// first call after a cycle that evicted workloads pauses the scheduler.
func (g *SchedulerGate) ClusterQueueActive(name kueue.ClusterQueueReference) bool {
	g.mu.Lock()
	if g.lockStep && !g.held && g.evictions.Load() != g.seen {
		g.paused = true
	}
	stopped := g.held || g.paused
	g.mu.Unlock()
	if stopped && g.looked != nil {
		select {
		case g.looked <- struct{}{}:
		default:
		}
	}
	return !stopped && g.checker.ClusterQueueActive(name)
}

// Park holds Kueue's scheduler and returns once it is waiting for heads:
// no scheduling cycle is running then, and none starts until Release. It
// waits for a cycle under way to end. A step whose control plane looks
// quiet may still have a cycle under way: on a loaded machine a cycle can
// go without writing for longer than the settle's quiet polls, and the
// next instant (its requeues, its arrivals) would then meet that cycle's
// tail, which Kueue's queues take differently from a finished cycle (a
// workload requeued after a retry of the inadmissible ones goes back to
// the active queue, not aside). Park's caller compares Kueue's count of
// finished cycles before and after (TotalCycles) to tell whether one was
// under way.
//
// The scheduler takes heads holding the queue manager's lock and asks the
// gate about every ClusterQueue as it does; the hold takes that lock (see
// change), so a round under way ends before it, and the next look proves
// a round of heads that began held, which takes nothing. It returns ctx's error, or an error after
// timeout if the scheduler never looks (it is not running).
//
// With waitForPodsReady's blockAdmission, a cycle that reaches an entry
// while an admitted workload's pods are not ready writes that the entry
// waits and blocks in Kueue's cache until they are, or until that
// workload leaves (its PodsReady timeout, an end of run): something only
// a later instant brings. Such a scheduler is parked too: it takes no
// heads and decides nothing until then, and what it does when it wakes
// (admit the entry it holds) belongs to the instant that wakes it.
func (g *SchedulerGate) Park(ctx context.Context, timeout time.Duration) error {
	g.Hold()
	if g.queues == nil || g.looked == nil || len(g.queues.GetClusterQueueNames()) == 0 {
		return nil // no ClusterQueue: the scheduler asks nothing and has nothing to schedule
	}
	select {
	case <-g.looked:
	default:
	}
	g.queues.Broadcast()
	t := time.NewTimer(timeout)
	defer t.Stop()
	var poll <-chan time.Time
	if g.notAllReady != nil {
		tick := time.NewTicker(parkPoll)
		defer tick.Stop()
		poll = tick.C
	}
	for {
		select {
		case <-g.looked:
			return nil
		case <-poll:
			if g.BlockedOnPodsReady() {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return fmt.Errorf("Kueue's scheduler did not come back for heads within %s of being held", timeout)
		}
	}
}

// Hold keeps Kueue's scheduler from starting another cycle. The pending
// gauges are recomputed: Kueue reports a ClusterQueue's gauge only when
// something touches its queue, and a held scheduler takes no heads, so a
// ClusterQueue no arrival reaches would otherwise go on showing the
// workloads it had to try before the hold, which nothing would try until
// Release. Before that, a hold of a going scheduler keeps the gauge as
// Kueue published it, for PendingCounts (gate_pending.go).
func (g *SchedulerGate) Hold() {
	g.change(func() {
		if !g.held {
			g.takePublished()
		}
		g.held = true
	})
	if g.queues != nil {
		resyncPendingGauges(g.queues, g)
	}
}

// Release lets Kueue's scheduler take the heads of its queues again: the
// pending gauges are recomputed and the scheduler is woken.
func (g *SchedulerGate) Release() {
	var was bool
	g.change(func() {
		was = g.held || g.paused
		g.held, g.paused, g.seen = false, false, g.evictions.Load()
	})
	if was {
		g.wake()
	}
}

// Unpark lets a scheduler held by Park go on as it would have after its
// last cycle: if that cycle evicted workloads, the scheduler stays paused
// until Resume, as lock-step wants (Release would let it go on at once).
func (g *SchedulerGate) Unpark() {
	var was bool
	g.change(func() {
		was = g.held
		g.held = false
	})
	if was {
		g.wake()
	}
}

// Resume lets a scheduler paused after an evicting cycle go on. It tells
// whether there was such a pause (taken or about to be taken), that is
// whether Kueue may now schedule more.
func (g *SchedulerGate) Resume() bool {
	var was bool
	g.change(func() {
		was = g.lockStep && !g.held && (g.paused || g.evictions.Load() != g.seen)
		if was {
			g.paused, g.seen = false, g.evictions.Load()
		}
	})
	if was {
		g.wake()
	}
	return was
}

// BlockedOnPodsReady tells whether the scheduler is blocked in a cycle
// until every admitted workload's pods are ready (waitForPodsReady's
// blockAdmission): it wrote that an entry waits for that, and an admitted
// workload's pods are not all ready. It takes no heads until they are, or
// until that workload leaves, which only a later instant brings.
func (g *SchedulerGate) BlockedOnPodsReady() bool {
	return g.notAllReady != nil && g.waitsForPodsReady.waiting() && g.notAllReady()
}

// Paused tells whether the scheduler is paused after an evicting cycle (or
// will be at its next look at its queues) until Resume.
func (g *SchedulerGate) Paused() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lockStep && !g.held && (g.paused || g.evictions.Load() != g.seen)
}

// change runs f, which changes whether the gate is held or paused, under
// the queue manager's lock as well as the gate's own. Kueue's scheduler
// asks the gate about every ClusterQueue in one round of heads, holding the
// queue manager's lock, so a round sees the gate either all before or all
// after a change. A round that saw the hold on one ClusterQueue and the
// release on the next would take only some of the heads, and a head could
// then go before one it waits behind (a best-effort workload before the
// head that reserves its cohort's quota). Lock order: the queue manager's,
// then the gate's, as in ClusterQueueActive.
func (g *SchedulerGate) change(f func()) {
	if g.queues != nil {
		g.queues.Lock()
		defer g.queues.Unlock()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	f()
}

func (g *SchedulerGate) wake() {
	if g.queues != nil {
		resyncPendingGauges(g.queues, g)
		g.queues.Broadcast()
	}
}

// Client wraps the client Kueue's scheduler writes with, counting the
// evictions it writes (preemptions among them).
func (g *SchedulerGate) Client(c client.Client) client.Client {
	return evictionCounter{Client: c, n: &g.evictions, evicted: &evictedSet{m: map[types.UID]bool{}}, waits: &g.waitsForPodsReady}
}

// evictionCounter counts the Workload status writes that set Evicted.
// It also tells, in waits, whether the scheduler's last status write said
// that an entry waits for admitted workloads' pods to be ready.
type evictionCounter struct {
	client.Client
	n       *atomic.Int64
	evicted *evictedSet
	waits   *podsReadyWaiter
}

func (c evictionCounter) Status() client.SubResourceWriter {
	return statusCounter{SubResourceWriter: c.Client.Status(), n: c.n, evicted: c.evicted, waits: c.waits}
}

type statusCounter struct {
	client.SubResourceWriter
	n       *atomic.Int64
	evicted *evictedSet
	waits   *podsReadyWaiter
}

func (w statusCounter) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	wl, isWorkload := obj.(*kueue.Workload)
	if isWorkload && w.waits != nil {
		w.waits.wrote(wl)
	}
	err := w.SubResourceWriter.Patch(ctx, obj, patch, opts...)
	if isWorkload && err == nil && w.evicted.sets(wl) {
		w.n.Add(1)
	}
	return err
}

// podsReadyWaiter is the Workload the scheduler last wrote waits for the
// pods of the workloads admitted before it to be ready, if any. Kueue
// admits asynchronously, so an earlier entry's admission can be written
// after that: only the waiting entry's own next write ends the wait.
type podsReadyWaiter struct {
	mu  sync.Mutex
	uid types.UID
}

// wrote records a status write of wl by the scheduler.
func (p *podsReadyWaiter) wrote(wl *kueue.Workload) {
	c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved)
	waits := c != nil && c.Status == metav1.ConditionFalse && c.Message == podsReadyWaitMessage
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case waits:
		p.uid = wl.UID
	case wl.UID == p.uid:
		p.uid = ""
	}
}

// clear forgets the wait: a cycle that starts waits for nothing yet.
func (p *podsReadyWaiter) clear() {
	p.mu.Lock()
	p.uid = ""
	p.mu.Unlock()
}

// waiting tells whether an entry waits.
func (p *podsReadyWaiter) waiting() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.uid != ""
}

// evictedSet remembers, per Workload, whether the scheduler's last status
// write held Evicted true. A write counts as an eviction when it turns
// Evicted true: a workload evicted earlier (preempted, or by its
// PodsReady timeout) keeps Evicted true while it waits to be admitted
// again, and the scheduler's writes of its pending message carry it
// along; they evict nothing. The scheduler writes from several goroutines
// (its preemptions run in parallel).
type evictedSet struct {
	mu sync.Mutex
	m  map[types.UID]bool
}

// sets records wl's Evicted condition as written and tells whether the
// write turned it true.
func (e *evictedSet) sets(wl *kueue.Workload) bool {
	now := apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadEvicted)
	e.mu.Lock()
	defer e.mu.Unlock()
	was := e.m[wl.UID]
	if now {
		e.m[wl.UID] = true
	} else {
		delete(e.m, wl.UID)
	}
	return now && !was
}
