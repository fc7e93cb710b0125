package fakes

import (
	"context"
	"fmt"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	rayutils "github.com/ray-project/kuberay/ray-operator/controllers/ray/utils"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
)

// rayClusterReconciler is the fake KubeRay operator for RayClusters: the
// head and worker pods once Kueue unsuspends the cluster, none while it is
// suspended. A Ray pod that ended is deleted and made again, as KubeRay does
// for pods whose containers will not restart. With enableInTreeAutoscaling
// the head pod carries KubeRay's autoscaler sidecar (HeadPodTemplate),
// which asks for resources like any container; the autoscaler itself does
// not run, so worker groups keep their desired replicas. It makes no
// Services.
type rayClusterReconciler struct {
	client client.Client
	clock  clock.PassiveClock
}

func (r *rayClusterReconciler) setup(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("kueue-sim-fake-raycluster").
		For(&rayv1.RayCluster{}).
		Owns(&corev1.Pod{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(r)
}

// Reconcile makes or removes a RayCluster's pods and reports its status.
func (r *rayClusterReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	rc := &rayv1.RayCluster{}
	if err := r.client.Get(ctx, req.NamespacedName, rc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if rc.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	pods, err := ownedPods(ctx, r.client, rc, map[string]string{rayutils.RayClusterLabelKey: rc.Name})
	if err != nil {
		return ctrl.Result{}, err
	}
	if ptr.Deref(rc.Spec.Suspend, false) {
		if _, err := deletePods(ctx, r.client, pods, all); err != nil {
			return ctrl.Result{}, err
		}
	} else {
		if _, err := deletePods(ctx, r.client, pods, func(p *corev1.Pod) bool { return !active(p) }); err != nil {
			return ctrl.Result{}, err
		}
		gvk := rayv1.SchemeGroupVersion.WithKind("RayCluster")
		if err := createMissing(ctx, r.client, rayClusterPods(rc, gvk, rc.Name, &rc.Spec, nil), pods); err != nil {
			return ctrl.Result{}, err
		}
	}
	st := rayClusterStatus(ctx, rc, pods, metav1.NewTime(r.clock.Now()))
	if apiequality.Semantic.DeepEqual(st, rc.Status) {
		return ctrl.Result{}, nil
	}
	rc.Status = st
	if err := r.client.Status().Update(ctx, rc); err != nil {
		if apierrors.IsConflict(err) {
			return ctrl.Result{}, nil // a newer version is on its way to Reconcile
		}
		return ctrl.Result{}, fmt.Errorf("updating status of RayCluster %s/%s: %w", rc.Namespace, rc.Name, err)
	}
	return ctrl.Result{}, nil
}
