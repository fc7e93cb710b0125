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
// clock. Kueue v0.17 builds the reconciler in core.SetupControllers with
// no clock option, so on a replay's compressed time a five-minute timeout
// fired five wall minutes into the replay, hours of simulated time late,
// or never.
//
// WithInstantTimers puts both on simulated time. When Kueue adds its
// Workload controller to the manager, the controller's reconciler (the
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
	// WakeAt runs f once simulated time reaches at.
	WakeAt(at time.Duration, f func())
}

// WithInstantTimers runs the delays of Kueue's Workload reconciler on t,
// and the reconciler on the scheduler's clock (WithSchedulerClock, which
// it needs), as described above.
func WithInstantTimers(t InstantTimers) Option { return func(o *options) { o.wakes = t } }

// workloadController is the name Kueue's Workload controller is added
// under.
const workloadController = "workload_controller"

// simulateWorkloadTimers gives the Workload controller r the clock c and
// a queue whose delays wait on t. It reports whether r was that
// controller.
func simulateWorkloadTimers(r manager.Runnable, c clock.Clock, t InstantTimers) (bool, error) {
	v := reflect.ValueOf(r)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return false, nil
	}
	if name := v.Elem().FieldByName("Name"); !name.IsValid() || name.Kind() != reflect.String || name.String() != workloadController {
		return false, nil
	}
	fail := func(what string) (bool, error) {
		return false, fmt.Errorf("putting Kueue's Workload reconciler on simulated time: %s (update sim/kueuesetup/workload_timers.go)", what)
	}
	do := v.Elem().FieldByName("Do")
	if !do.IsValid() || do.Kind() != reflect.Interface {
		return fail(fmt.Sprintf("controller-runtime's controller (%T) has no Do field", r))
	}
	rec, ok := do.Interface().(*core.WorkloadReconciler)
	if !ok {
		return fail(fmt.Sprintf("its reconciler is a %T, not Kueue's *core.WorkloadReconciler", do.Interface()))
	}
	if err := setReconcilerClock(rec, c); err != nil {
		return fail(err.Error())
	}
	field := v.Elem().FieldByName("NewQueue")
	if !field.IsValid() || !field.CanSet() || field.Type() != reflect.TypeFor[newQueueFunc]() {
		return fail(fmt.Sprintf("controller-runtime's controller (%T) has no NewQueue field of type %v", r, reflect.TypeFor[newQueueFunc]()))
	}
	inner, _ := field.Interface().(newQueueFunc)
	if inner == nil {
		return fail("its controller has no queue constructor yet")
	}
	field.Set(reflect.ValueOf(newQueueFunc(func(n string, rl workqueue.TypedRateLimiter[reconcile.Request]) workqueue.TypedRateLimitingInterface[reconcile.Request] {
		return newInstantDelayQueue(inner(n, rl), t)
	})))
	return true, nil
}

// setReconcilerClock sets the unexported clock field of Kueue's Workload
// reconciler.
func setReconcilerClock(rec *core.WorkloadReconciler, c clock.Clock) error {
	f := reflect.ValueOf(rec).Elem().FieldByName("clock")
	if !f.IsValid() || f.Type() != reflect.TypeFor[clock.Clock]() {
		return fmt.Errorf("Kueue's WorkloadReconciler has no clock field of type %v", reflect.TypeFor[clock.Clock]())
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(&c).Elem())
	return nil
}

// instantDelayQueue is a controller's work queue whose delayed adds wait
// for simulated time. Like client-go's delaying queue, an item already
// waiting for an earlier time is not added for a later one.
type instantDelayQueue struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	timers InstantTimers

	mu      sync.Mutex
	waiting map[reconcile.Request]time.Duration // the earliest time each item waits for
}

func newInstantDelayQueue(q workqueue.TypedRateLimitingInterface[reconcile.Request], t InstantTimers) *instantDelayQueue {
	return &instantDelayQueue{TypedRateLimitingInterface: q, timers: t, waiting: map[reconcile.Request]time.Duration{}}
}

func (q *instantDelayQueue) AddAfter(item reconcile.Request, d time.Duration) {
	if d <= 0 {
		q.Add(item)
		return
	}
	at := q.timers.Elapsed() + d
	q.mu.Lock()
	if w, ok := q.waiting[item]; ok && w <= at {
		q.mu.Unlock()
		return
	}
	q.waiting[item] = at
	q.mu.Unlock()
	q.timers.WakeAt(at, func() {
		q.mu.Lock()
		if q.waiting[item] == at {
			delete(q.waiting, item)
		}
		q.mu.Unlock()
		q.Add(item)
	})
}
