package engine

import (
	"context"
	"errors"

	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// updateWorkloadStatus changes a Workload's status with an update of the
// status subresource. It starts from the informer cache's copy: a step
// settles until the informers hold every write, so that copy is current,
// and kube-apiserver (which keeps no watch cache of Workloads) need not
// read the Workload from etcd first. A copy that turns out stale conflicts;
// the retries read through to the API server. change reports whether the
// Workload still needs the update; cache may be nil.
//
// The cache's copy went through the informer transforms (Kueue drops
// managed fields, kueue-sim rewrites the creation time to the simulated
// arrival): neither reaches etcd, because a status update keeps the stored
// metadata and, sent without managed fields, the stored managed fields.
func updateWorkloadStatus(ctx context.Context, cache client.Reader, direct client.Client, key client.ObjectKey, change func(*kueue.Workload) bool) error {
	fromCache := cache != nil
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var wl kueue.Workload
		err := errNotRead
		if fromCache {
			fromCache = false
			err = cache.Get(ctx, key, &wl)
		}
		if err != nil {
			err = direct.Get(ctx, key, &wl)
		}
		if err != nil {
			return err
		}
		if !change(&wl) {
			return nil
		}
		return direct.Status().Update(ctx, &wl)
	})
}

// errNotRead stands for a read not made from the cache.
var errNotRead = errors.New("not read from the cache")
