package reconciler

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
)

// toPlatform maps any watched change to the platform request.
var toPlatform = handler.EnqueueRequestsFromMapFunc(func(context.Context, client.Object) []reconcile.Request {
	return []reconcile.Request{platformKey}
})

// onlyDeletes passes deletions: a default deleted by an admin is re-created.
var onlyDeletes = predicate.Funcs{
	CreateFunc:  func(event.CreateEvent) bool { return false },
	UpdateFunc:  func(event.UpdateEvent) bool { return false },
	DeleteFunc:  func(event.DeleteEvent) bool { return true },
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// managedNamespaceChanges passes changes of namespaces that are or were
// Kueue-managed.
var managedNamespaceChanges = predicate.Funcs{
	CreateFunc: func(e event.CreateEvent) bool { return dscv1.IsKueueManaged(e.Object.GetLabels()) },
	UpdateFunc: func(e event.UpdateEvent) bool {
		return dscv1.IsKueueManaged(e.ObjectOld.GetLabels()) || dscv1.IsKueueManaged(e.ObjectNew.GetLabels())
	},
	DeleteFunc:  func(event.DeleteEvent) bool { return false },
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// nodeCapacityChanges passes new and removed nodes and allocatable changes:
// a GPU flavor is created once some node has the GPU.
var nodeCapacityChanges = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		o, okOld := e.ObjectOld.(*corev1.Node)
		n, okNew := e.ObjectNew.(*corev1.Node)
		return !okOld || !okNew || !equality.Semantic.DeepEqual(o.Status.Allocatable, n.Status.Allocatable)
	},
}

// operatorCRD passes changes of the Kueue operator's CRD.
var operatorCRD = predicate.NewPredicateFuncs(func(o client.Object) bool {
	return o.GetName() == kueueoperatorv1.CRDName
})

// SetupWithManager registers the platform controller with mgr. It watches
// DataScienceClusters (spec changes), Kueue-managed namespaces, node
// capacity, deletions of ResourceFlavors, ClusterQueues and LocalQueues, and
// the operator's CRD; the operator's Kueue CRs are watched once that CRD
// exists.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	c, err := ctrl.NewControllerManagedBy(mgr).
		Named(ControllerName).
		WithOptions(controller.Options{MaxConcurrentReconciles: 1}).
		Watches(&dscv1.DataScienceCluster{}, toPlatform, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&corev1.Namespace{}, toPlatform, builder.WithPredicates(managedNamespaceChanges)).
		Watches(&corev1.Node{}, toPlatform, builder.WithPredicates(nodeCapacityChanges)).
		Watches(&kueue.ResourceFlavor{}, toPlatform, builder.WithPredicates(onlyDeletes)).
		Watches(&kueue.ClusterQueue{}, toPlatform, builder.WithPredicates(onlyDeletes)).
		Watches(&kueue.LocalQueue{}, toPlatform, builder.WithPredicates(onlyDeletes)).
		Watches(&apiextensionsv1.CustomResourceDefinition{}, toPlatform, builder.WithPredicates(operatorCRD)).
		Build(r)
	if err != nil {
		return fmt.Errorf("setting up controller %s: %w", ControllerName, err)
	}
	r.ctrl, r.cache = c, mgr.GetCache()
	return nil
}

// watchKueueCRs starts watching deletions of the operator's Kueue CRs, once.
// It is called only when the operator's CRD exists: a watch on a type the
// API server does not serve would fail the manager.
func (r *Reconciler) watchKueueCRs() error {
	r.watchKueueMu.Lock()
	defer r.watchKueueMu.Unlock()
	if r.watchingCRs || r.ctrl == nil {
		return nil
	}
	src := source.Kind(r.cache, client.Object(&kueueoperatorv1.Kueue{}), toPlatform, onlyDeletes)
	if err := r.ctrl.Watch(src); err != nil {
		return fmt.Errorf("watching Kueue CRs: %w", err)
	}
	r.watchingCRs = true
	return nil
}
