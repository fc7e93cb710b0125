package remote

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/reconciler"
	"github.com/kueue-sim/kueue-sim/sim/kwok"
)

// cleanupTimeout bounds each wait of Close for deletions to finish.
const cleanupTimeout = 2 * time.Minute

// Close removes what the run made, in an order that lets Kueue (still
// running) release its finalizers: the run's namespaces and everything in
// them; the DataScienceCluster; the ClusterQueues, Cohorts,
// ResourceFlavors and WorkloadPriorityClasses labelled with the run (and
// those the platform's reconciler made); the KWOK nodes. Then it stops
// Kueue and the platform, which deletes their webhook configurations. It
// goes on past errors and returns them all.
func (r *Run) Close(ctx context.Context) error {
	if r == nil {
		return nil
	}
	var errs []error
	if r.client != nil {
		errs = append(errs, r.deleteAll(ctx, &corev1.NamespaceList{}, client.MatchingLabels{RunLabel: r.ID}))
		errs = append(errs, r.deleteAll(ctx, &dscv1.DataScienceClusterList{}, client.MatchingLabels{RunLabel: r.ID}))
		// The reconciler's defaults: kueue-sim's reconciler alone sets
		// CreatedUnderLabel, so a real platform's objects are left alone.
		made := []client.ListOption{client.MatchingLabels{reconciler.PartOfLabel: "kueue"}, client.HasLabels{reconciler.CreatedUnderLabel}}
		for _, sel := range [][]client.ListOption{{client.MatchingLabels{RunLabel: r.ID}}, made} {
			for _, list := range []client.ObjectList{
				&kueue.ClusterQueueList{}, &kueue.CohortList{}, &kueue.ResourceFlavorList{}, &kueue.WorkloadPriorityClassList{},
			} {
				errs = append(errs, r.deleteAll(ctx, list, sel...))
			}
		}
		errs = append(errs, kwok.DeleteNodes(ctx, r.client, r.nodes))
	}
	if r.Plane != nil {
		errs = append(errs, r.Plane.Stop())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("cleaning up run %s on the cluster: %w", r.ID, err)
	}
	return nil
}

// deleteAll deletes the listed objects matching sel and waits until they
// are gone.
func (r *Run) deleteAll(ctx context.Context, list client.ObjectList, sel ...client.ListOption) error {
	if err := r.client.List(ctx, list, sel...); err != nil {
		if meta.IsNoMatchError(err) {
			return nil
		}
		return fmt.Errorf("listing %T: %w", list, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return fmt.Errorf("reading %T: %w", list, err)
	}
	var errs []error
	for _, it := range items {
		obj, ok := it.(client.Object)
		if !ok {
			continue
		}
		if err := r.client.Delete(ctx, obj, client.PropagationPolicy("Background")); client.IgnoreNotFound(err) != nil {
			errs = append(errs, fmt.Errorf("deleting %s: %w", obj.GetName(), err))
		}
	}
	if len(items) == 0 || len(errs) > 0 {
		return errors.Join(errs...)
	}
	return r.waitGone(ctx, list, sel...)
}

func (r *Run) waitGone(ctx context.Context, list client.ObjectList, sel ...client.ListOption) error {
	ctx, cancel := context.WithTimeout(ctx, cleanupTimeout)
	defer cancel()
	for {
		if err := r.client.List(ctx, list, sel...); err != nil {
			return fmt.Errorf("waiting for deletions: %w", err)
		}
		n := meta.LenList(list)
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			items, _ := meta.ExtractList(list)
			var names []string
			for _, it := range items {
				if obj, ok := it.(client.Object); ok {
					names = append(names, obj.GetName())
				}
			}
			return fmt.Errorf("still there after %s: %s", cleanupTimeout, strings.Join(names, ", "))
		case <-time.After(200 * time.Millisecond):
		}
	}
}
