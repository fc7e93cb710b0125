package kueuesetup

import (
	"context"
	"fmt"
	"reflect"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// A replay's decisions must not depend on how fast the machine runs
// Kueue: the engine settles each instant, and orders what happens within
// one (an instant's waits go before its arrivals and ends of runs). A
// race that breaks this shows only on a loaded machine, now and then.
// WithSlowReconcilers makes such a race show every time: Kueue's clocked
// reconcilers (the Workload and LocalQueue reconcilers, the ones whose
// waits are instants of the replay) sleep before each reconcile, as on a
// machine far busier than any CI runner, and so do the reconcilers of
// Kueue's job integrations (the Job, PyTorchJob, RayJob, RayCluster,
// pod, Deployment and StatefulSet reconcilers), which make each job's
// Workload, unsuspend the job once it is admitted and stop it once it is
// evicted. A replay slowed so must write the decisions it writes at full
// speed, only later (sim run --slow-kueue; cmd/sim's
// TestMultiTeamFairSharingTraceIsReproducible and
// TestAdmissionFairSharingOnSimulatedTime).

// WithSlowReconcilers makes Kueue's clocked reconcilers and its job
// integrations' reconcilers sleep d of wall time before each reconcile
// (with WithInstantTimers; see above).
func WithSlowReconcilers(d time.Duration) Option { return func(o *options) { o.slow = d } }

// slowManager is the manager Kueue's job integrations are set up on under
// WithSlowReconcilers: it passes everything through to the real one and
// slows each controller it adds, including those an integration adds
// later, once its CRD appears.
type slowManager struct {
	ctrl.Manager
	d time.Duration
}

func (m slowManager) Add(r manager.Runnable) error {
	if _, _, ok := controllerOf(r); ok {
		if err := slowDown(r, m.d); err != nil {
			return err
		}
	}
	return m.Manager.Add(r)
}

// slowDown makes the reconciler of controller-runtime's controller r
// sleep d before each reconcile.
func slowDown(r manager.Runnable, d time.Duration) error {
	ctl, name, _ := controllerOf(r)
	do := ctl.FieldByName("Do")
	inner, ok := do.Interface().(reconcile.Reconciler)
	if !ok || !do.CanSet() {
		return fmt.Errorf("slowing Kueue's %s down: its Do field cannot be wrapped (update sim/kueuesetup/slow_reconcilers.go)", name)
	}
	do.Set(reflect.ValueOf(slowReconciler{inner: inner, d: d}))
	return nil
}

type slowReconciler struct {
	inner reconcile.Reconciler
	d     time.Duration
}

var _ reconcile.Reconciler = slowReconciler{}

func (s slowReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	select {
	case <-time.After(s.d):
	case <-ctx.Done():
		return reconcile.Result{}, ctx.Err()
	}
	return s.inner.Reconcile(ctx, req)
}
