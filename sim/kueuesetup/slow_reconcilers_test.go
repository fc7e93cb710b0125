package kueuesetup

import (
	"context"
	"errors"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/kueue/pkg/controller/core"
)

// TestSlowReconcilers: with WithSlowReconcilers, the clocked reconcilers
// (and only they) sleep before each reconcile, still on the simulated
// clock; a cancelled reconcile does not reach Kueue's.
func TestSlowReconcilers(t *testing.T) {
	sim := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	m := newSimulatedTimeManager(&recordingManager{}, nil, sim, &fakeWakes{})
	m.slow = time.Hour
	rec := core.NewWorkloadReconciler(nil, nil, nil, nil)
	wl := newWorkloadController(t, rec)
	other := newController(t, "resourceflavor_controller")
	for _, c := range []controller.TypedController[reconcile.Request]{wl, other, newLocalQueueController(t)} {
		if err := m.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if got := reconcilerClock(t, rec); got != sim {
		t.Errorf("the slowed Workload reconciler reads %T, want the simulated clock", got)
	}
	do := func(c any) any {
		ctl, _, _ := controllerOf(c.(controller.TypedController[reconcile.Request]))
		return ctl.FieldByName("Do").Interface()
	}
	slow, ok := do(wl).(slowReconciler)
	if !ok || slow.d != time.Hour || slow.inner != reconcile.Reconciler(rec) {
		t.Fatalf("the Workload controller reconciles with %#v, want Kueue's reconciler slowed by 1h", do(wl))
	}
	if _, ok := do(other).(slowReconciler); ok {
		t.Error("resourceflavor_controller is slowed; only the clocked reconcilers may be")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	s := slowReconciler{inner: reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		called = true
		return reconcile.Result{}, nil
	}), d: time.Hour}
	if _, err := s.Reconcile(ctx, reconcile.Request{}); !errors.Is(err, context.Canceled) || called {
		t.Errorf("a cancelled slowed reconcile: %v, reached Kueue's: %v; want context.Canceled, false", err, called)
	}
}

// TestSlowJobReconcilers: the manager Kueue's job integrations are set up
// on under WithSlowReconcilers slows every controller added through it,
// and passes other runnables on unchanged.
func TestSlowJobReconcilers(t *testing.T) {
	rec := &recordingManager{}
	m := slowManager{Manager: rec, d: time.Hour}
	job := newController(t, "job")
	other := manager.RunnableFunc(func(context.Context) error { return nil })
	for _, r := range []manager.Runnable{job, other} {
		if err := m.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if len(rec.added) != 2 {
		t.Fatalf("the real manager got %d runnables, want 2", len(rec.added))
	}
	ctl, _, _ := controllerOf(job)
	if slow, ok := ctl.FieldByName("Do").Interface().(slowReconciler); !ok || slow.d != time.Hour {
		t.Errorf("the job controller reconciles with %#v, want a reconciler slowed by 1h", ctl.FieldByName("Do").Interface())
	}
}
