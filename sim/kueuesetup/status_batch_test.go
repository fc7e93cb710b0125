package kueuesetup

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/kueue/pkg/constants"
)

// fakeTimers holds AfterSimulated's functions until fire.
type fakeTimers struct {
	waits []time.Duration
	fns   []func()
}

func (f *fakeTimers) AfterSimulated(d time.Duration, fn func()) {
	f.waits = append(f.waits, d)
	f.fns = append(f.fns, fn)
}

func (f *fakeTimers) fire() {
	fns := f.fns
	f.fns = nil
	for _, fn := range fns {
		fn()
	}
}

// recordingManager records what is added to it.
type recordingManager struct {
	ctrl.Manager
	added []manager.Runnable
}

func (m *recordingManager) Add(r manager.Runnable) error {
	m.added = append(m.added, r)
	return nil
}

func newController(t *testing.T, name string) controller.TypedController[reconcile.Request] {
	t.Helper()
	c, err := controller.NewTypedUnmanaged(name, controller.TypedOptions[reconcile.Request]{
		Reconciler:         reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }),
		SkipNameValidation: ptrTrue(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ptrTrue() *bool { b := true; return &b }

// newQueueOf builds the queue a controller would build at its start.
func newQueueOf(t *testing.T, c any) workqueue.TypedRateLimitingInterface[reconcile.Request] {
	t.Helper()
	nq, err := queueConstructor(c)
	if err != nil {
		t.Fatal(err)
	}
	return nq("test", workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
}

// TestStatusControllersCountDelaysInSimulatedTime: controller-runtime's
// controller still has the fields simulatedTimeManager reaches; a status
// controller's AddAfter waits for simulated time, once per item; its Add
// and every other controller's queue are untouched.
func TestStatusControllersCountDelaysInSimulatedTime(t *testing.T) {
	timers := &fakeTimers{}
	rec := &recordingManager{}
	m := newSimulatedTimeManager(rec, timers, nil, nil)
	cq := newController(t, "clusterqueue_controller")
	wl := newController(t, "workload_controller")
	for _, c := range []manager.Runnable{cq, wl} {
		if err := m.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if len(rec.added) != 2 {
		t.Fatalf("the real manager got %d runnables, want 2", len(rec.added))
	}

	q := newQueueOf(t, cq)
	defer q.ShutDown()
	if _, ok := q.(*simulatedDelayQueue); !ok {
		t.Fatalf("clusterqueue_controller's queue is %T, want the simulated-delay queue", q)
	}
	item := reconcile.Request{NamespacedName: types.NamespacedName{Name: "team-a"}}
	q.AddAfter(item, constants.UpdatesBatchPeriod)
	q.AddAfter(item, constants.UpdatesBatchPeriod) // already waiting: no second timer
	if q.Len() != 0 {
		t.Fatalf("AddAfter queued the item before simulated time passed (len %d)", q.Len())
	}
	if len(timers.waits) != 1 || timers.waits[0] != time.Second {
		t.Fatalf("simulated timers: %v, want one of 1s", timers.waits)
	}
	timers.fire()
	if q.Len() != 1 {
		t.Fatalf("after the simulated second the queue holds %d items, want 1", q.Len())
	}
	got, _ := q.Get()
	q.Done(got)
	if got != item {
		t.Errorf("got %v, want %v", got, item)
	}
	// Once fired, the item can wait again.
	q.AddAfter(item, constants.UpdatesBatchPeriod)
	if len(timers.waits) != 2 {
		t.Errorf("a second AddAfter after the first fired made %d timers in all, want 2", len(timers.waits))
	}
	q.AddAfter(reconcile.Request{NamespacedName: types.NamespacedName{Name: "now"}}, 0)
	if q.Len() != 1 {
		t.Errorf("AddAfter(0) did not queue at once")
	}
	// Other delays (admission fair sharing's RequeueAfter) stay the
	// controller-runtime queue's, on wall time.
	q.AddAfter(reconcile.Request{NamespacedName: types.NamespacedName{Name: "afs"}}, 10*time.Millisecond)
	if len(timers.waits) != 2 {
		t.Errorf("a 10ms RequeueAfter went to simulated time")
	}
	if err := wait.PollUntilContextTimeout(context.Background(), 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return q.Len() == 2, nil
	}); err != nil {
		t.Errorf("a 10ms RequeueAfter was not queued on wall time: len %d", q.Len())
	}

	other := newQueueOf(t, wl)
	defer other.ShutDown()
	if _, ok := other.(*simulatedDelayQueue); ok {
		t.Error("workload_controller's queue counts delays in simulated time; only the status controllers' may")
	}
}

// queueConstructor reads a controller's NewQueue, as its Start would.
func queueConstructor(c any) (newQueueFunc, error) {
	f := reflect.ValueOf(c).Elem().FieldByName("NewQueue")
	if !f.IsValid() {
		return nil, fmt.Errorf("%T has no NewQueue field", c)
	}
	nq, _ := f.Interface().(newQueueFunc)
	if nq == nil {
		return nil, fmt.Errorf("%T's NewQueue is nil", c)
	}
	return nq, nil
}

// TestStatusBatchingFailsWithoutTheStatusControllers: once Kueue's
// controllers are added, a status controller that was not recognised (and
// so would batch on wall time) is an error naming it; the Cohort
// controller, which Kueue v0.17 does not batch, is not required.
func TestStatusBatchingFailsWithoutTheStatusControllers(t *testing.T) {
	m := newSimulatedTimeManager(&recordingManager{}, &fakeTimers{}, nil, nil)
	if err := m.Add(newController(t, "clusterqueue_controller")); err != nil {
		t.Fatal(err)
	}
	err := m.checkWrapped()
	if err == nil || !strings.Contains(err.Error(), "localqueue_controller") || strings.Contains(err.Error(), "clusterqueue_controller") {
		t.Fatalf("with the LocalQueue controller missing: %v", err)
	}
	if err := m.Add(newController(t, "localqueue_controller")); err != nil {
		t.Fatal(err)
	}
	if err := m.checkWrapped(); err != nil {
		t.Errorf("with both status controllers added: %v", err)
	}
}
