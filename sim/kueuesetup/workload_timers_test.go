package kueuesetup

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/kueue/pkg/constants"
	"sigs.k8s.io/kueue/pkg/controller/core"
)

// fakeWakes holds WakeAt's functions until fire.
type fakeWakes struct {
	now    time.Duration
	timers []*fakeWake
}

type fakeWake struct {
	at   time.Duration
	fn   func()
	dead bool
}

func (f *fakeWakes) Elapsed() time.Duration { return f.now }

func (f *fakeWakes) WakeAt(at time.Duration, fn func()) func() {
	w := &fakeWake{at: at, fn: fn}
	f.timers = append(f.timers, w)
	return func() { w.dead = true }
}

// live is the times of the timers neither fired nor cancelled.
func (f *fakeWakes) live() []time.Duration {
	var ats []time.Duration
	for _, w := range f.timers {
		if !w.dead {
			ats = append(ats, w.at)
		}
	}
	return ats
}

// fireUntil moves the fake to t and runs the live functions due by then.
func (f *fakeWakes) fireUntil(t time.Duration) {
	f.now = t
	var kept []*fakeWake
	for _, w := range f.timers {
		switch {
		case w.dead:
		case w.at <= t:
			w.fn()
		default:
			kept = append(kept, w)
		}
	}
	f.timers = kept
}

func newLocalQueueController(t *testing.T) controller.TypedController[reconcile.Request] {
	t.Helper()
	return newKueueController(t, "localqueue_controller", core.NewLocalQueueReconciler(nil, nil, nil))
}

func newWorkloadController(t *testing.T, r reconcile.Reconciler) controller.TypedController[reconcile.Request] {
	t.Helper()
	return newKueueController(t, workloadController, r)
}

func newKueueController(t *testing.T, name string, r reconcile.Reconciler) controller.TypedController[reconcile.Request] {
	t.Helper()
	c, err := controller.NewTypedUnmanaged(name, controller.TypedOptions[reconcile.Request]{
		Reconciler: r, SkipNameValidation: ptrTrue(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// reconcilerClock reads the unexported clock of one of Kueue's
// reconcilers.
func reconcilerClock(t *testing.T, r any) clock.Clock {
	t.Helper()
	f := reflect.ValueOf(r).Elem().FieldByName("clock")
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(clock.Clock)
}

// TestWorkloadReconcilerOnSimulatedTime: Kueue's Workload reconciler, as
// Kueue builds it, reads the clock it is given, and its controller's
// delayed adds (RequeueAfter) wait on the instant timers, the earliest
// of an item's waits winning, until the item is forgotten; other
// controllers' queues stay controller-runtime's.
func TestWorkloadReconcilerOnSimulatedTime(t *testing.T) {
	rec := core.NewWorkloadReconciler(nil, nil, nil, nil)
	if _, ok := reconcilerClock(t, rec).(clock.RealClock); !ok {
		t.Fatalf("Kueue's Workload reconciler starts on %T, want the real clock", reconcilerClock(t, rec))
	}
	sim := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	wakes := &fakeWakes{now: 30 * time.Second}
	m := newSimulatedTimeManager(&recordingManager{}, nil, sim, wakes)
	wl := newWorkloadController(t, rec)
	other := newController(t, "resourceflavor_controller")
	lq := newLocalQueueController(t)
	for _, c := range []any{wl, other, lq} {
		if err := m.Add(c.(controller.TypedController[reconcile.Request])); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.checkWrapped(); err != nil {
		t.Fatalf("with the Workload and LocalQueue controllers added: %v", err)
	}
	if got := reconcilerClock(t, rec); got != clock.Clock(sim) {
		t.Fatalf("the Workload reconciler reads %T, want the simulated clock", got)
	}

	q := newQueueOf(t, wl)
	defer q.ShutDown()
	item := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "job-1"}}
	q.AddAfter(item, 60*time.Second)
	q.AddAfter(item, 90*time.Second) // a later wait for an item already waiting: none
	q.AddAfter(item, 10*time.Second) // an earlier one replaces it
	if want := []time.Duration{40 * time.Second}; !reflect.DeepEqual(wakes.live(), want) {
		t.Fatalf("wakes at %v, want %v", wakes.live(), want)
	}
	if q.Len() != 0 {
		t.Fatalf("AddAfter queued the item before simulated time passed (len %d)", q.Len())
	}
	wakes.fireUntil(40 * time.Second)
	if q.Len() != 1 {
		t.Fatalf("at the wake the queue holds %d items, want 1", q.Len())
	}
	got, _ := q.Get()
	q.Done(got)
	q.Forget(got)
	if got != item {
		t.Errorf("got %v, want %v", got, item)
	}
	q.AddAfter(item, 5*time.Second) // nothing waits any more: a new wake
	if want := []time.Duration{45 * time.Second}; !reflect.DeepEqual(wakes.live(), want) {
		t.Errorf("after the wait fired, AddAfter(5s) at 40s made wakes %v, want %v", wakes.live(), want)
	}
	// A reconcile that ends without asking for a delay ends the wait.
	q.Forget(item)
	if live := wakes.live(); len(live) != 0 {
		t.Errorf("after Forget, wakes %v are left", live)
	}
	wakes.fireUntil(90 * time.Second)
	if q.Len() != 0 {
		t.Errorf("a forgotten wait added its item (len %d)", q.Len())
	}
	q.AddAfter(reconcile.Request{NamespacedName: types.NamespacedName{Name: "now"}}, 0)
	if q.Len() != 1 {
		t.Errorf("AddAfter(0) did not queue at once: len %d", q.Len())
	}

	oq := newQueueOf(t, other)
	defer oq.ShutDown()
	if _, ok := oq.(*instantDelayQueue); ok {
		t.Error("resourceflavor_controller's queue waits on instant timers; only the Workload controller's may")
	}
}

// TestWorkloadTimersFailLoudly: a Workload controller whose reconciler is
// not Kueue's, or no Workload controller at all, is an error naming what
// to update, never a silent wall clock.
func TestWorkloadTimersFailLoudly(t *testing.T) {
	sim := clocktesting.NewFakeClock(time.Now())
	m := newSimulatedTimeManager(&recordingManager{}, nil, sim, &fakeWakes{})
	err := m.Add(newController(t, workloadController))
	if err == nil || !strings.Contains(err.Error(), "workload_timers.go") {
		t.Errorf("a workload_controller with another reconciler: %v, want an error naming workload_timers.go", err)
	}
	m = newSimulatedTimeManager(&recordingManager{}, nil, sim, &fakeWakes{})
	if err := m.Add(newLocalQueueController(t)); err != nil {
		t.Fatal(err)
	}
	if err := m.checkWrapped(); err == nil || !strings.Contains(err.Error(), workloadController) || strings.Contains(err.Error(), "localqueue") {
		t.Errorf("without a Workload controller: %v, want an error naming it alone", err)
	}
}

// TestLocalQueueReconcilerOnSimulatedTime: admission fair sharing's
// LocalQueue reconciler reads the simulated clock too; its controller's
// queue sends the status batch period to the status timers and its other
// delays (the usage sampling interval) to the instant timers.
func TestLocalQueueReconcilerOnSimulatedTime(t *testing.T) {
	sim := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	timers, wakes := &fakeTimers{}, &fakeWakes{}
	m := newSimulatedTimeManager(&recordingManager{}, timers, sim, wakes)
	lq := newLocalQueueController(t)
	if err := m.Add(lq); err != nil {
		t.Fatal(err)
	}
	do := reflect.ValueOf(lq).Elem().FieldByName("Do").Interface()
	if got := reconcilerClock(t, do); got != clock.Clock(sim) {
		t.Fatalf("the LocalQueue reconciler reads %T, want the simulated clock", got)
	}
	q := newQueueOf(t, lq)
	defer q.ShutDown()
	item := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "lq"}}
	q.AddAfter(item, constants.UpdatesBatchPeriod)
	q.AddAfter(item, 5*time.Minute)
	if len(timers.waits) != 1 || timers.waits[0] != constants.UpdatesBatchPeriod {
		t.Errorf("status timers %v, want one of the batch period", timers.waits)
	}
	if live := wakes.live(); len(live) != 1 || live[0] != 5*time.Minute {
		t.Errorf("instant timers at %v, want one at 5m", live)
	}
}
