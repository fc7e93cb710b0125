package reconciler

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// Labels on everything the platform creates.
const (
	// PartOfLabel (value "kueue") marks objects the platform's Kueue
	// integration created.
	PartOfLabel = "platform.opendatahub.io/part-of"
	// CreatedUnderLabel records the management state an object was created
	// under. Leaving Managed for Removed deletes the objects created under
	// Managed.
	CreatedUnderLabel = "kueue-sim.io/created-under"
)

// ensureDefaults creates whichever default is absent: the ResourceFlavors,
// the ClusterQueue and a LocalQueue in each Kueue-managed namespace. An
// existing default is never read or changed, so an admin's edit survives;
// a deleted one comes back. A refused default does not keep the others from
// being created; the errors are returned together.
func (r *Reconciler) ensureDefaults(ctx context.Context, dsc *dscv1.DataScienceCluster, nss []corev1.Namespace, under dscv1.ManagementState) error {
	var nodes corev1.NodeList
	if err := r.client.List(ctx, &nodes); err != nil {
		return fmt.Errorf("listing nodes for the default quotas: %w", err)
	}
	c := capacity(nodes.Items)
	var errs []error
	for _, name := range defaultFlavorNames(c) {
		rf := &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if _, err := r.createIfAbsent(ctx, dsc, rf, under); err != nil {
			errs = append(errs, err)
		}
	}
	k := dsc.Spec.Components.Kueue
	cq := &kueue.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: k.ClusterQueueName()},
		Spec:       defaultClusterQueueSpec(c),
	}
	if _, err := r.createIfAbsent(ctx, dsc, cq, under); err != nil {
		errs = append(errs, err)
	}
	for _, ns := range nss {
		lq := &kueue.LocalQueue{
			ObjectMeta: metav1.ObjectMeta{Name: k.LocalQueueName(), Namespace: ns.Name},
			Spec:       kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(k.ClusterQueueName())},
		}
		if _, err := r.createIfAbsent(ctx, dsc, lq, under); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// createIfAbsent creates obj, annotated opendatahub.io/managed=false and
// labelled as the platform's, unless an object of its kind and name exists
// (even one being deleted). It reports whether it created obj, with an event
// on the DataScienceCluster.
func (r *Reconciler) createIfAbsent(ctx context.Context, dsc *dscv1.DataScienceCluster, obj client.Object, under dscv1.ManagementState) (bool, error) {
	kind := "object"
	if gvk, err := r.client.GroupVersionKindFor(obj); err == nil {
		kind = gvk.Kind
	}
	what := kind + " " + client.ObjectKeyFromObject(obj).String()
	existing, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return false, fmt.Errorf("copying %s: not a client.Object", what)
	}
	err := r.client.Get(ctx, client.ObjectKeyFromObject(obj), existing)
	if err == nil {
		return false, nil
	}
	if !apierrors.IsNotFound(err) {
		return false, fmt.Errorf("looking up %s: %w", what, err)
	}
	obj.SetAnnotations(merge(obj.GetAnnotations(), map[string]string{dscv1.ManagedAnnotation: "false"}))
	obj.SetLabels(merge(obj.GetLabels(), map[string]string{PartOfLabel: "kueue", CreatedUnderLabel: string(under)}))
	if err := r.client.Create(ctx, obj); err != nil {
		if apierrors.IsAlreadyExists(err) {
			return false, nil
		}
		if apierrors.IsNotFound(err) || (apierrors.IsForbidden(err) && obj.GetNamespace() != "" && r.namespaceGone(ctx, obj.GetNamespace())) {
			return false, nil
		}
		return false, fmt.Errorf("creating %s: %w", what, err)
	}
	r.recorder.Eventf(dsc, corev1.EventTypeNormal, "Created", "Created %s (annotated %s=false: the platform will not change it)", what, dscv1.ManagedAnnotation)
	return true, nil
}

// namespaceGone reports whether a namespace is absent or being deleted: a
// LocalQueue refused there is no failure.
func (r *Reconciler) namespaceGone(ctx context.Context, name string) bool {
	var ns corev1.Namespace
	err := r.client.Get(ctx, client.ObjectKey{Name: name}, &ns)
	return apierrors.IsNotFound(err) || (err == nil && ns.DeletionTimestamp != nil)
}

func merge(into, from map[string]string) map[string]string {
	if into == nil {
		into = map[string]string{}
	}
	for k, v := range from {
		into[k] = v
	}
	return into
}
