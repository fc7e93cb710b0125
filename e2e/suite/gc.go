package suite

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// WaitOrphansCollected waits until kube-controller-manager's garbage
// collector has reached every Workload whose controller owner is gone: each
// such Workload is deleted or marked for deletion. A run's deletions
// (background propagation) reach the owned Workloads a moment after the
// run exits; what reads the cluster right after a run waits for them here.
func WaitOrphansCollected(ctx context.Context, cfg *envconf.Config, timeout time.Duration) error {
	c, err := Client(cfg)
	if err != nil {
		return err
	}
	var orphan string
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		var wls kueue.WorkloadList
		if err := c.List(ctx, &wls); err != nil {
			return false, err
		}
		for i := range wls.Items {
			wl := &wls.Items[i]
			if wl.DeletionTimestamp != nil {
				continue
			}
			gone, err := ownerGone(ctx, c, wl.Namespace, metav1.GetControllerOf(wl))
			if err != nil {
				return false, err
			}
			if gone {
				orphan = wl.Namespace + "/" + wl.Name
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the garbage collector to reach Workload %s, whose owner is gone: %w", orphan, err)
	}
	return nil
}

// ownerGone tells whether ref's object no longer exists (by name and uid).
func ownerGone(ctx context.Context, c client.Client, namespace string, ref *metav1.OwnerReference) (bool, error) {
	if ref == nil {
		return false, nil
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return false, nil
	}
	obj := &unstructured.Unstructured{}
	obj.SetGroupVersionKind(gv.WithKind(ref.Kind))
	switch err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: ref.Name}, obj); {
	case apierrors.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading %s %s/%s: %w", ref.Kind, namespace, ref.Name, err)
	}
	return obj.GetUID() != ref.UID, nil
}
