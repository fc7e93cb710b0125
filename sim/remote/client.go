package remote

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// labellingClient labels everything created through it with RunLabel=runID,
// and refuses to treat a cluster-scoped object of the same name that is not
// the run's as its own: the engine would otherwise take an existing
// ClusterQueue (say) for the scenario's.
func labellingClient(c client.WithWatch, runID string) client.WithWatch {
	return interceptor.NewClient(c, interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			labels := obj.GetLabels()
			if labels == nil {
				labels = map[string]string{}
			}
			labels[RunLabel] = runID
			obj.SetLabels(labels)
			err := c.Create(ctx, obj, opts...)
			if !apierrors.IsAlreadyExists(err) || obj.GetNamespace() != "" {
				return err
			}
			existing, ok := obj.DeepCopyObject().(client.Object)
			if !ok {
				return err
			}
			if gerr := c.Get(ctx, client.ObjectKeyFromObject(obj), existing); gerr != nil {
				return err
			}
			if existing.GetLabels()[RunLabel] == runID {
				return err
			}
			kind := fmt.Sprintf("%T", obj)
			if gvk, gerr := c.GroupVersionKindFor(obj); gerr == nil {
				kind = gvk.Kind
			}
			return fmt.Errorf("%s %s exists on the cluster and is not this run's (label %s=%s): "+
				"delete it, or use a cluster without it", kind, obj.GetName(), RunLabel, existing.GetLabels()[RunLabel])
		},
	})
}
