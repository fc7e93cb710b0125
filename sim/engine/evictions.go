package engine

import (
	"context"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/workload"

	"github.com/kueue-sim/kueue-sim/sim/settle"
)

// evictor completes the eviction of raw Workloads. A Workload that belongs
// to a job has the job's integration release its quota once Kueue evicts
// it (the job is suspended); a raw Workload has no job, so the engine plays
// that part, as Kueue's own scheduler-performance runner does: it clears
// the quota reservation of an evicted raw Workload, and Kueue queues it
// again.
type evictor struct {
	c     client.Client
	cache client.Reader // may be nil: read through c
	clock *VirtualClock

	mu      sync.Mutex
	queued  map[client.ObjectKey]bool
	wake    chan struct{}
	working int
	err     error
}

func newEvictor(c client.Client, cache client.Reader, clock *VirtualClock) *evictor {
	return &evictor{c: c, cache: cache, clock: clock, queued: map[client.ObjectKey]bool{}, wake: make(chan struct{}, 1)}
}

// needs tells whether Kueue evicted a Workload that still holds quota.
func needsEvictionDone(wl *kueue.Workload) bool {
	return apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadEvicted) &&
		apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadQuotaReserved) &&
		!apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished)
}

// add queues a Workload whose eviction must be completed.
func (e *evictor) add(key client.ObjectKey) {
	e.mu.Lock()
	e.queued[key] = true
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// busy names unfinished work, or returns the zero Busy.
func (e *evictor) busy() settle.Busy {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return settle.EvictionsFailed(e.err)
	}
	if n := len(e.queued) + e.working; n > 0 {
		return settle.EvictionsPending(n)
	}
	return settle.Busy{}
}

// run completes queued evictions until ctx ends.
func (e *evictor) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.wake:
		}
		for {
			e.mu.Lock()
			var keys []client.ObjectKey
			for k := range e.queued {
				keys = append(keys, k)
			}
			clear(e.queued)
			e.working = len(keys)
			e.mu.Unlock()
			if len(keys) == 0 {
				break
			}
			// Each completion is a read and a status write of its own
			// Workload: they go to kube-apiserver together.
			calls := make([]call, len(keys))
			for i, k := range keys {
				calls[i].do = func(ctx context.Context) error {
					err := e.complete(ctx, k)
					e.mu.Lock()
					e.working--
					if err != nil && ctx.Err() == nil && e.err == nil {
						e.err = err
					}
					e.mu.Unlock()
					return nil
				}
			}
			parallel(ctx, workers, calls)
		}
	}
}

func (e *evictor) complete(ctx context.Context, key client.ObjectKey) error {
	err := updateWorkloadStatus(ctx, e.cache, e.c, key, func(wl *kueue.Workload) bool {
		if !needsEvictionDone(wl) {
			return false
		}
		// As a job's integration (jobframework) and Kueue's integration
		// tests for raw Workloads do: an eviction other than a preemption
		// (a waitForPodsReady timeout, a deactivation, a stopped
		// ClusterQueue) leaves the Workload Requeued=False, and Kueue's
		// Workload reconciler turns it true when that reason's wait ends
		// (requeueState.requeueAt on the simulated clock, a reactivation,
		// a restart). A preempted Workload is queued again at once, which
		// Requeued=True and no Requeued condition alike say.
		if ev := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadEvicted); ev != nil && ev.Reason != kueue.WorkloadEvictedByPreemption {
			workload.SetRequeuedCondition(wl, ev.Reason, ev.Message, false)
		}
		workload.UnsetQuotaReservationWithCondition(wl, "Pending", "kueue-sim: the raw Workload's eviction is complete", e.clock.Now())
		return true
	})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("completing the eviction of Workload %s: %w", key, err)
	}
	return nil
}
