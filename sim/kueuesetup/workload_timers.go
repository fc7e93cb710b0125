package kueuesetup

import (
	"fmt"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/kueue/pkg/controller/core"
)

// Kueue's Workload reconciler keeps time for waitForPodsReady (a
// workload's pods must be ready within a timeout of its admission, or it
// is evicted), for the requeuing back-off after such an eviction
// (requeuingStrategy: requeueAt, then the Requeued condition), for a
// workload's maximum execution time and for the retention of finished
// Workloads. It reads the time from its clock and waits by returning a
// RequeueAfter, which controller-runtime counts on its work queue's wall
// clock. Kueue builds the reconciler in core.SetupControllers with no
// clock option, so on a replay's compressed time a timeout would measure
// wall time from a simulated admission: the Workload would be evicted at
// once, and its back-off would end wall seconds into the replay, or never. The
// LocalQueue reconciler keeps admission fair sharing's usage the same way
// (clockedReconcilers), and is built with no clock option either.
//
// WithInstantTimers puts both on simulated time. When Kueue adds one of
// these controllers to the manager, the controller's reconciler (the
// exported Do field of controller-runtime's internal controller type) is
// given the scheduler's clock in its unexported clock field, and the
// controller's queue constructor (NewQueue) is wrapped so that a delayed
// add waits for simulated time on InstantTimers, where the engine makes
// it an instant of the replay (engine.VirtualClock.WakeAt). Everything
// else about the queue stays controller-runtime's, rate-limited retries
// after an error among them. Both fields are reached by reflection; Setup
// fails, naming this file, if controller-runtime or Kueue moves them.

// InstantTimers run a function at a simulated time that the replay makes
// an instant of (engine.VirtualClock).
type InstantTimers interface {
	// Elapsed is the simulated time now.
	Elapsed() time.Duration
	// WakeAt runs f once simulated time reaches at, unless cancelled.
	WakeAt(at time.Duration, f func()) (cancel func())
}

// WithInstantTimers runs the delays of Kueue's Workload and LocalQueue
// reconcilers on t, and the reconcilers on the scheduler's clock
// (WithSchedulerClock, which it needs), as described above.
func WithInstantTimers(t InstantTimers) Option { return func(o *options) { o.wakes = t } }

// workloadController is the name Kueue's Workload controller is added
// under.
const workloadController = "workload_controller"

// clockedReconcilers are Kueue's controllers whose reconcilers keep time
// on a clock core.SetupControllers gives them no option for, by the name
// each is added under, with a test that a reconciler is Kueue's. Setup
// fails unless it found them all.
//
// The LocalQueue reconciler keeps admission fair sharing's usage: it
// samples each LocalQueue's admitted usage every usageSamplingInterval
// and decays what it consumed with usageHalfLifeTime. The Workload
// reconciler has code that folds an admitted workload's usage into the
// same record on its own clock, so the two must read one clock.
var clockedReconcilers = map[string]func(any) bool{
	workloadController:      func(r any) bool { _, ok := r.(*core.WorkloadReconciler); return ok },
	"localqueue_controller": func(r any) bool { _, ok := r.(*core.LocalQueueReconciler); return ok },
}

// simulateReconcilerTimers gives the controller r, if it is one of
// clockedReconcilers, the clock c and a queue whose delays wait on t. It
// returns the controller's name, or "".
func simulateReconcilerTimers(r manager.Runnable, c clock.Clock, t InstantTimers) (string, error) {
	ctl, name, ok := controllerOf(r)
	if !ok {
		return "", nil
	}
	isKueues, ok := clockedReconcilers[name]
	if !ok {
		return "", nil
	}
	fail := func(what string) (string, error) {
		return "", fmt.Errorf("putting Kueue's %s on simulated time: %s (update sim/kueuesetup/workload_timers.go)", name, what)
	}
	do := ctl.FieldByName("Do")
	if !do.IsValid() || do.Kind() != reflect.Interface {
		return fail(fmt.Sprintf("controller-runtime's controller (%T) has no Do field", r))
	}
	if !isKueues(do.Interface()) {
		return fail(fmt.Sprintf("its reconciler is a %T, not Kueue's", do.Interface()))
	}
	if err := setReconcilerClock(do.Interface(), c); err != nil {
		return fail(err.Error())
	}
	if err := wrapNewQueue(ctl, func(q queue) queue { return newInstantDelayQueue(q, t) }); err != nil {
		return fail(err.Error())
	}
	return name, nil
}

// setReconcilerClock sets the unexported clock field of one of Kueue's
// reconcilers (a pointer to a struct).
func setReconcilerClock(rec any, c clock.Clock) error {
	v := reflect.ValueOf(rec)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("%T is not a pointer to a struct", rec)
	}
	f := v.Elem().FieldByName("clock")
	if !f.IsValid() || f.Type() != reflect.TypeFor[clock.Clock]() {
		return fmt.Errorf("%T has no clock field of type %v", rec, reflect.TypeFor[clock.Clock]())
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(&c).Elem())
	return nil
}

// instantDelayQueue is a controller's work queue whose delayed adds wait
// for simulated time. Like client-go's delaying queue, an item already
// waiting for an earlier time is not added for a later one. Unlike it, an
// item's wait ends when the controller forgets the item (controller-runtime
// calls Forget after every reconcile that ends without an error, before
// adding the item again for a RequeueAfter): a wait is what the
// reconciler asked for last, and Kueue's reconcilers work out at every
// reconcile when they need the next one. Kueue's Workload reconciler asks
// to look again at each admitted workload's PodsReady timeout; kept, every
// such wait would be an instant of the replay, including the waits of all
// the workloads whose pods became ready long before.
type instantDelayQueue struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	timers InstantTimers

	mu      sync.Mutex
	waiting map[reconcile.Request]*pendingWake // each item's wait
}

type pendingWake struct {
	at     time.Duration
	cancel func() // nil until WakeAt has returned
}

func newInstantDelayQueue(q workqueue.TypedRateLimitingInterface[reconcile.Request], t InstantTimers) *instantDelayQueue {
	return &instantDelayQueue{TypedRateLimitingInterface: q, timers: t, waiting: map[reconcile.Request]*pendingWake{}}
}

func (q *instantDelayQueue) AddAfter(item reconcile.Request, d time.Duration) {
	if d <= 0 {
		q.Add(item)
		return
	}
	at := q.timers.Elapsed() + d
	q.mu.Lock()
	old := q.waiting[item]
	if old != nil && old.at <= at {
		q.mu.Unlock()
		return
	}
	p := &pendingWake{at: at}
	q.waiting[item] = p
	stopOld := old.stopper()
	q.mu.Unlock()
	stopOld()
	cancel := q.timers.WakeAt(at, func() {
		q.mu.Lock()
		current := q.waiting[item] == p
		if current {
			delete(q.waiting, item)
		}
		q.mu.Unlock()
		if current {
			q.Add(item)
		}
	})
	q.mu.Lock()
	p.cancel = cancel
	q.mu.Unlock()
}

// Forget ends item's wait, then forgets it as controller-runtime's queue
// does (its rate limiter's count).
func (q *instantDelayQueue) Forget(item reconcile.Request) {
	q.mu.Lock()
	stop := q.waiting[item].stopper()
	delete(q.waiting, item)
	q.mu.Unlock()
	stop()
	q.TypedRateLimitingInterface.Forget(item)
}

// stopper returns what cancels the wait's timer, if it has one yet (a
// wait replaced before then does not add its item when it fires); the
// caller holds the queue's mu and calls it after releasing it.
func (p *pendingWake) stopper() func() {
	if p == nil || p.cancel == nil {
		return func() {}
	}
	return p.cancel
}
