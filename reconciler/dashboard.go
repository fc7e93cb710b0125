package reconciler

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	odhv1alpha "github.com/kueue-sim/kueue-sim/api/opendatahub/v1alpha"
)

// Dashboard plays the part of the OpenShift AI dashboard when it creates a
// data science project: a namespace created with opendatahub.io/dashboard=true
// is made Kueue-managed (kueue.openshift.io/managed=true) if, when it is
// created, Kueue is enabled in the DataScienceCluster (Managed or
// Unmanaged) and no OdhDashboardConfig sets disableKueue. Namespaces
// created any other way, or already carrying a managed label (whatever its
// value), are left alone; so are existing namespaces when Kueue is enabled
// later, as the dashboard labels projects only when it creates them.
type Dashboard struct {
	client client.Client
}

var _ reconcile.Reconciler = (*Dashboard)(nil)

// NewDashboard returns a dashboard-projects reconciler working through c.
func NewDashboard(c client.Client) *Dashboard { return &Dashboard{client: c} }

// newDashboardProjects passes creations of dashboard projects, not the
// namespaces listed when the manager starts.
var newDashboardProjects = predicate.Funcs{
	CreateFunc: func(e event.CreateEvent) bool {
		return !e.IsInInitialList && e.Object.GetLabels()[odhv1alpha.DashboardProjectLabel] == "true"
	},
	UpdateFunc:  func(event.UpdateEvent) bool { return false },
	DeleteFunc:  func(event.DeleteEvent) bool { return false },
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// SetupWithManager registers the dashboard-projects controller with mgr.
func (d *Dashboard) SetupWithManager(mgr ctrl.Manager) error {
	err := ctrl.NewControllerManagedBy(mgr).
		Named(DashboardControllerName).
		For(&corev1.Namespace{}, builder.WithPredicates(newDashboardProjects)).
		Complete(d)
	if err != nil {
		return fmt.Errorf("setting up controller %s: %w", DashboardControllerName, err)
	}
	return nil
}

// Reconcile labels a newly created dashboard project as Kueue-managed when
// the dashboard would.
func (d *Dashboard) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var ns corev1.Namespace
	if err := d.client.Get(ctx, req.NamespacedName, &ns); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if ns.DeletionTimestamp != nil || ns.Labels[odhv1alpha.DashboardProjectLabel] != "true" {
		return reconcile.Result{}, nil
	}
	if _, ok := ns.Labels[dscv1.KueueManagedLabel]; ok {
		return reconcile.Result{}, nil
	}
	if _, ok := ns.Labels[dscv1.LegacyKueueManagedLabel]; ok {
		return reconcile.Result{}, nil
	}
	on, err := d.kueueInDashboard(ctx)
	if err != nil || !on {
		return reconcile.Result{}, err
	}
	patch := client.MergeFrom(ns.DeepCopy())
	ns.Labels[dscv1.KueueManagedLabel] = "true"
	if err := d.client.Patch(ctx, &ns, patch); err != nil && !apierrors.IsNotFound(err) {
		return reconcile.Result{}, fmt.Errorf("labelling dashboard project %s as Kueue-managed: %w", ns.Name, err)
	}
	return reconcile.Result{}, nil
}

// kueueInDashboard reports whether the dashboard offers Kueue: Kueue is
// enabled in the active DataScienceCluster and no OdhDashboardConfig sets
// disableKueue.
func (d *Dashboard) kueueInDashboard(ctx context.Context) (bool, error) {
	var dscs dscv1.DataScienceClusterList
	if err := d.client.List(ctx, &dscs); err != nil {
		return false, fmt.Errorf("listing DataScienceClusters: %w", err)
	}
	active, _ := dscv1.Active(dscs.Items)
	if active == nil || !active.Spec.Components.Kueue.Enabled() {
		return false, nil
	}
	var cfgs odhv1alpha.OdhDashboardConfigList
	if err := d.client.List(ctx, &cfgs); err != nil {
		return false, fmt.Errorf("listing OdhDashboardConfigs: %w", err)
	}
	for _, c := range cfgs.Items {
		if c.Spec.DashboardConfig.DisableKueue {
			return false, nil
		}
	}
	return true, nil
}
