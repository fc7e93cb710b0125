package reconciler

import (
	"context"
	"errors"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// Names of the controllers and of their event source.
const (
	ControllerName          = "openshift-ai-kueue"
	DashboardControllerName = "openshift-ai-dashboard-projects"
)

// platformKey is the one request the platform controller works on: every
// watched change maps to it, and each reconcile looks at the whole cluster.
var platformKey = reconcile.Request{NamespacedName: client.ObjectKey{Name: "platform"}}

// Option configures the reconcilers.
type Option func(*options)

type options struct {
	clock clock.PassiveClock
}

// WithClock sets the clock whose time is written into conditions; default
// the wall clock. The simulator passes its virtual clock.
func WithClock(c clock.PassiveClock) Option { return func(o *options) { o.clock = c } }

// Setup adds the platform controller and the dashboard-projects controller
// to mgr.
func Setup(mgr ctrl.Manager, opts ...Option) error {
	//nolint:staticcheck // core/v1 events, the API Kueue records its events with.
	rec := mgr.GetEventRecorderFor(ControllerName)
	r := New(mgr.GetClient(), rec, opts...)
	if err := r.SetupWithManager(mgr); err != nil {
		return err
	}
	return NewDashboard(mgr.GetClient()).SetupWithManager(mgr)
}

// SetupFunc returns Setup with opts bound, for cluster.WithSetup.
func SetupFunc(opts ...Option) func(ctrl.Manager) error {
	return func(mgr ctrl.Manager) error { return Setup(mgr, opts...) }
}

// Reconciler is OpenShift AI's Kueue integration: it acts on the active
// DataScienceCluster's Kueue management state. See the package
// documentation for what it does in each state.
type Reconciler struct {
	client   client.Client
	recorder record.EventRecorder
	clock    clock.PassiveClock

	// Set by SetupWithManager, for the Kueue CR watch started once the
	// operator's CRD exists.
	ctrl         controller.Controller
	cache        cache.Cache
	watchKueueMu sync.Mutex
	watchingCRs  bool
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// New returns a platform reconciler that reads and writes through c and
// records events with rec.
func New(c client.Client, rec record.EventRecorder, opts ...Option) *Reconciler {
	o := options{clock: clock.RealClock{}}
	for _, opt := range opts {
		opt(&o)
	}
	return &Reconciler{client: c, recorder: rec, clock: o.clock}
}

// Reconcile brings the cluster in line with the active DataScienceCluster.
func (r *Reconciler) Reconcile(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
	var list dscv1.DataScienceClusterList
	if err := r.client.List(ctx, &list); err != nil {
		return reconcile.Result{}, fmt.Errorf("listing DataScienceClusters: %w", err)
	}
	active, others := dscv1.Active(list.Items)
	var errs []error
	for _, dsc := range others {
		c := condition{Status: metav1.ConditionFalse, Reason: dscv1.ReasonDuplicate, Message: fmt.Sprintf(
			"DataScienceCluster %s is the active one (the oldest); this one is ignored. Delete it and "+
				"configure %s instead.", active.Name, active.Name)}
		errs = append(errs, r.report(ctx, dsc, dsc.Status.Components.Kueue.ManagementState, c))
	}
	if active == nil {
		// No DataScienceCluster: the platform does nothing and removes
		// nothing.
		return reconcile.Result{}, errors.Join(errs...)
	}
	errs = append(errs, r.reconcile(ctx, active))
	return reconcile.Result{}, errors.Join(errs...)
}

// reconcile carries out the plan for dsc and reports it. A failed step stops
// the plan; it is reported as the condition and returned, so the request is
// retried with back-off.
func (r *Reconciler) reconcile(ctx context.Context, dsc *dscv1.DataScienceCluster) error {
	installed, err := r.operatorInstalled(ctx)
	if err != nil {
		return err
	}
	k := dsc.Spec.Components.Kueue
	p := decide(k.State(), dsc.Status.Components.Kueue.ManagementState, installed)
	stepErr := r.apply(ctx, dsc, p)
	if stepErr != nil {
		// Keep the last acted-on state: a cleanup that failed is retried.
		return errors.Join(stepErr, r.report(ctx, dsc, dsc.Status.Components.Kueue.ManagementState, failureCondition(stepErr)))
	}
	return r.report(ctx, dsc, p.observed, p.cond)
}

// apply carries out the steps of p in order.
func (r *Reconciler) apply(ctx context.Context, dsc *dscv1.DataScienceCluster, p plan) error {
	if p.cleanupManaged {
		if err := r.removeManagedCreations(ctx, dsc); err != nil {
			return failed(dscv1.ReasonCleanupFailed, err)
		}
	}
	if p.kueueCR {
		if err := r.ensureKueueCR(ctx, dsc); err != nil {
			return failed(dscv1.ReasonKueueCRFailed, err)
		}
	}
	if !p.namespaces && !p.defaults {
		return nil
	}
	nss, err := r.managedNamespaces(ctx)
	if err != nil {
		return failed(dscv1.ReasonNamespacesFailed, err)
	}
	if p.namespaces {
		if err := r.labelManagedNamespaces(ctx, nss); err != nil {
			return failed(dscv1.ReasonNamespacesFailed, err)
		}
	}
	if p.defaults {
		if err := r.ensureDefaults(ctx, dsc, nss, p.observed); err != nil {
			return failed(dscv1.ReasonDefaultsFailed, err)
		}
	}
	return nil
}
