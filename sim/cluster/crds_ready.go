package cluster

import (
	"context"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// crdCreateHold is how long kube-apiserver holds every create of a custom
// resource whose CRD became Established less than that long ago, by the
// condition's lastTransitionTime (whole seconds): a fixed sleep
// (apiextensions-apiserver, customresource_handler.go, "justCreated") so
// that a create on one of several API servers is not followed by a 404
// from another that has not seen the CRD yet. The CRDs are installed
// while the control plane starts; a replay that began within that window
// had its first creates (the DataScienceCluster, a ResourceFlavor, a
// Workload) held for two wall seconds, in about a third of the bundled
// scenarios' runs.
const crdCreateHold = 2 * time.Second

// crdsTakeCreatesAt returns when kube-apiserver stops holding creates of
// the custom resources of every CRD the cluster serves (see
// crdCreateHold): the latest Established transition plus the hold.
func crdsTakeCreatesAt(ctx context.Context, c client.Reader) (time.Time, error) {
	var crds apiextensionsv1.CustomResourceDefinitionList
	if err := c.List(ctx, &crds); err != nil {
		return time.Time{}, fmt.Errorf("listing CRDs: %w", err)
	}
	return createsTakenAt(crds.Items), nil
}

// createsTakenAt is crdsTakeCreatesAt's reading of crds.
func createsTakenAt(crds []apiextensionsv1.CustomResourceDefinition) time.Time {
	var latest time.Time
	for i := range crds {
		for _, c := range crds[i].Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue && c.LastTransitionTime.After(latest) {
				latest = c.LastTransitionTime.Time
			}
		}
	}
	if latest.IsZero() {
		return latest
	}
	return latest.Add(crdCreateHold)
}

// waitUntil returns at t, or when ctx ends.
func waitUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
