package reconciler

import (
	"context"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// managedNamespaces lists the Kueue-managed namespaces not being deleted.
func (r *Reconciler) managedNamespaces(ctx context.Context) ([]corev1.Namespace, error) {
	var list corev1.NamespaceList
	if err := r.client.List(ctx, &list); err != nil {
		return nil, fmt.Errorf("listing namespaces: %w", err)
	}
	var out []corev1.Namespace
	for _, ns := range list.Items {
		if ns.DeletionTimestamp == nil && dscv1.IsKueueManaged(ns.Labels) {
			out = append(out, ns)
		}
	}
	// Sorted, so that a failure message lists namespaces in a stable order.
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// missingManagedLabels returns the managed labels to add to a Kueue-managed
// namespace: whichever of the two spellings is absent, set to "true". A
// label already present is never changed, whatever its value.
func missingManagedLabels(labels map[string]string) map[string]string {
	add := map[string]string{}
	for _, k := range []string{dscv1.KueueManagedLabel, dscv1.LegacyKueueManagedLabel} {
		if _, ok := labels[k]; !ok {
			add[k] = "true"
		}
	}
	return add
}

// labelManagedNamespaces makes sure both managed labels are on every
// Kueue-managed namespace.
func (r *Reconciler) labelManagedNamespaces(ctx context.Context, nss []corev1.Namespace) error {
	for i := range nss {
		add := missingManagedLabels(nss[i].Labels)
		if len(add) == 0 {
			continue
		}
		ns := nss[i].DeepCopy()
		patch := client.MergeFrom(nss[i].DeepCopy())
		for k, v := range add {
			ns.Labels[k] = v
		}
		if err := r.client.Patch(ctx, ns, patch); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("labelling Kueue-managed namespace %s: %w", ns.Name, err)
		}
		nss[i] = *ns
	}
	return nil
}
