package reconciler

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// removeManagedCreations deletes the LocalQueues, ClusterQueues and
// ResourceFlavors the platform created while Managed (label
// kueue-sim.io/created-under=Managed), with an event for each. Kueue's
// finalizers hold a ClusterQueue or flavor until nothing uses it; the
// deletion is not awaited.
func (r *Reconciler) removeManagedCreations(ctx context.Context, dsc *dscv1.DataScienceCluster) error {
	sel := client.MatchingLabels{PartOfLabel: "kueue", CreatedUnderLabel: string(dscv1.Managed)}
	var lqs kueue.LocalQueueList
	var cqs kueue.ClusterQueueList
	var rfs kueue.ResourceFlavorList
	var objs []client.Object
	for _, l := range []client.ObjectList{&lqs, &cqs, &rfs} {
		if err := r.client.List(ctx, l, sel); err != nil {
			return fmt.Errorf("listing what Managed created: %w", err)
		}
	}
	for i := range lqs.Items {
		objs = append(objs, &lqs.Items[i])
	}
	for i := range cqs.Items {
		objs = append(objs, &cqs.Items[i])
	}
	for i := range rfs.Items {
		objs = append(objs, &rfs.Items[i])
	}
	var errs []error
	for _, o := range objs {
		if o.GetDeletionTimestamp() != nil {
			continue
		}
		what := fmt.Sprintf("%T %s", o, client.ObjectKeyFromObject(o))
		if gvk, err := r.client.GroupVersionKindFor(o); err == nil {
			what = gvk.Kind + " " + client.ObjectKeyFromObject(o).String()
		}
		if err := r.client.Delete(ctx, o); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("deleting %s: %w", what, err))
			continue
		}
		r.recorder.Eventf(dsc, corev1.EventTypeNormal, "Deleted", "Deleted %s: it was created while Kueue was Managed", what)
	}
	return errors.Join(errs...)
}
