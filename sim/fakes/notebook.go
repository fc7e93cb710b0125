package fakes

import (
	"context"
	"fmt"
	"maps"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Labels and annotations of the OpenShift AI notebook controller (the
// opendatahub-io fork of Kubeflow's).
const (
	notebookNameLabel    = "notebook-name"
	statefulSetLabel     = "statefulset"
	workbenchLabel       = "opendatahub.io/workbenches"
	notebookStoppedAnnot = "kubeflow-resource-stopped"
)

// notebookReconciler is the fake notebook controller: for each Notebook a
// StatefulSet of the same name (generateStatefulSet), and the Notebook's
// status mirrored from it and its pod <name>-0 (createNotebookStatus). It
// makes no Service, route or OAuth proxy. The StatefulSet is made once and
// only its replica count is kept in step afterwards: Kueue forbids changing
// the pod template of a StatefulSet it queues.
type notebookReconciler struct {
	client client.Client
	clock  clock.PassiveClock
}

func (r *notebookReconciler) setup(mgr ctrl.Manager) error {
	toNotebook := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
		return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetLabels()[notebookNameLabel]}}}
	})
	labelled := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()[notebookNameLabel] != "" })
	return ctrl.NewControllerManagedBy(mgr).
		Named("kueue-sim-fake-notebook").
		For(newUnstructured(notebookGVK)).
		Owns(&appsv1.StatefulSet{}).
		Watches(&corev1.Pod{}, toNotebook, builder.WithPredicates(labelled)).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(r)
}

// notebookStatus is the notebook controller's NotebookStatus.
type notebookStatus struct {
	Conditions     []notebookCondition   `json:"conditions"`
	ReadyReplicas  int32                 `json:"readyReplicas"`
	ContainerState corev1.ContainerState `json:"containerState"`
}

// notebookCondition is a pod condition as the Notebook reports it.
type notebookCondition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	LastProbeTime      metav1.Time `json:"lastProbeTime,omitempty"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
	Reason             string      `json:"reason,omitempty"`
	Message            string      `json:"message,omitempty"`
}

// Reconcile makes a Notebook's StatefulSet and reports the Notebook's status.
func (r *notebookReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	nb := newUnstructured(notebookGVK)
	if err := r.client.Get(ctx, req.NamespacedName, nb); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if nb.GetDeletionTimestamp() != nil {
		return ctrl.Result{}, nil
	}
	want, err := notebookStatefulSet(nb)
	if err != nil {
		return ctrl.Result{}, err
	}
	sts := &appsv1.StatefulSet{}
	err = r.client.Get(ctx, client.ObjectKeyFromObject(want), sts)
	switch {
	case apierrors.IsNotFound(err):
		if err := r.client.Create(ctx, want); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, fmt.Errorf("creating StatefulSet for Notebook %s/%s: %w", nb.GetNamespace(), nb.GetName(), err)
		}
		sts = want
	case err != nil:
		return ctrl.Result{}, fmt.Errorf("reading StatefulSet of Notebook %s/%s: %w", nb.GetNamespace(), nb.GetName(), err)
	case !metav1.IsControlledBy(sts, nb):
		return ctrl.Result{}, fmt.Errorf("StatefulSet %s/%s exists and does not belong to Notebook %s", sts.Namespace, sts.Name, nb.GetName())
	case ptr.Deref(sts.Spec.Replicas, 1) != ptr.Deref(want.Spec.Replicas, 1):
		sts.Spec.Replicas = want.Spec.Replicas
		if err := r.client.Update(ctx, sts); err != nil {
			return ctrl.Result{}, fmt.Errorf("scaling StatefulSet of Notebook %s/%s: %w", nb.GetNamespace(), nb.GetName(), err)
		}
	}

	pod := &corev1.Pod{}
	if err := r.client.Get(ctx, types.NamespacedName{Namespace: sts.Namespace, Name: sts.Name + "-0"}, pod); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, fmt.Errorf("reading the pod of Notebook %s/%s: %w", nb.GetNamespace(), nb.GetName(), err)
	}
	return ctrl.Result{}, r.updateStatus(ctx, nb, notebookStatusOf(nb.GetName(), sts, pod, metav1.NewTime(r.clock.Now())))
}

// notebookStatefulSet is the StatefulSet the notebook controller makes for
// nb: one replica, none while stopped; the Notebook's labels on it and on
// the pod template with statefulset, notebook-name and
// opendatahub.io/workbenches; the Notebook's annotations on the pod
// template, but for kubectl's and the notebook controller's own.
func notebookStatefulSet(nb *unstructured.Unstructured) (*appsv1.StatefulSet, error) {
	var spec corev1.PodSpec
	if err := decodeField(nb, &spec, "spec", "template", "spec"); err != nil {
		return nil, err
	}
	replicas := int32(1)
	if _, stopped := nb.GetAnnotations()[notebookStoppedAnnot]; stopped {
		replicas = 0
	}
	podLabels := map[string]string{statefulSetLabel: nb.GetName(), notebookNameLabel: nb.GetName(), workbenchLabel: "true"}
	maps.Copy(podLabels, nb.GetLabels())
	podAnnots := map[string]string{}
	for k, v := range nb.GetAnnotations() {
		if !strings.Contains(k, "kubectl") && !strings.Contains(k, "notebook") {
			podAnnots[k] = v
		}
	}
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:            nb.GetName(),
			Namespace:       nb.GetNamespace(),
			Labels:          maps.Clone(nb.GetLabels()),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(nb, notebookGVK)},
		},
		Spec: appsv1.StatefulSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{statefulSetLabel: nb.GetName()}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: podLabels, Annotations: podAnnots},
				Spec:       spec,
			},
		},
	}, nil
}

// notebookStatusOf is the Notebook's status: readyReplicas from the
// StatefulSet, containerState from the pod's container named like the
// Notebook, conditions mirrored from the pod's (zero times become now).
func notebookStatusOf(name string, sts *appsv1.StatefulSet, pod *corev1.Pod, now metav1.Time) notebookStatus {
	st := notebookStatus{Conditions: []notebookCondition{}, ReadyReplicas: sts.Status.ReadyReplicas}
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == name {
			st.ContainerState = cs.State
		}
	}
	for _, c := range pod.Status.Conditions {
		nc := notebookCondition{
			Type: string(c.Type), Status: string(c.Status), Reason: c.Reason, Message: c.Message,
			LastProbeTime: c.LastProbeTime, LastTransitionTime: c.LastTransitionTime,
		}
		if nc.LastProbeTime.IsZero() {
			nc.LastProbeTime = now
		}
		if nc.LastTransitionTime.IsZero() {
			nc.LastTransitionTime = now
		}
		st.Conditions = append(st.Conditions, nc)
	}
	return st
}

func (r *notebookReconciler) updateStatus(ctx context.Context, nb *unstructured.Unstructured, st notebookStatus) error {
	var old notebookStatus
	if err := decodeField(nb, &old, "status"); err != nil {
		return err
	}
	if old.Conditions == nil {
		old.Conditions = []notebookCondition{}
	}
	// A pod condition without times gets now on every pass: times alone do
	// not make an update.
	if apiequality.Semantic.DeepEqual(withoutTimes(old), withoutTimes(st)) {
		return nil
	}
	v, err := toUnstructuredValue(st)
	if err != nil {
		return fmt.Errorf("writing status of Notebook %s/%s: %w", nb.GetNamespace(), nb.GetName(), err)
	}
	nb.Object["status"] = v
	if err := r.client.Status().Update(ctx, nb); err != nil {
		if apierrors.IsConflict(err) {
			return nil // a newer version is on its way to Reconcile
		}
		return fmt.Errorf("updating status of Notebook %s/%s: %w", nb.GetNamespace(), nb.GetName(), err)
	}
	return nil
}

func withoutTimes(st notebookStatus) notebookStatus {
	st.Conditions = append([]notebookCondition(nil), st.Conditions...)
	for i := range st.Conditions {
		st.Conditions[i].LastProbeTime, st.Conditions[i].LastTransitionTime = metav1.Time{}, metav1.Time{}
	}
	return st
}
