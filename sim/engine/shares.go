package engine

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Kinds of object a Share event is about, in the order take sorts them.
const (
	shareKindClusterQueue = "ClusterQueue"
	shareKindCohort       = "Cohort"
)

// shareObserver records what Kueue publishes as
// status.fairSharing.weightedShare on ClusterQueues and Cohorts: the
// weighted share Kueue's fair sharing ranks them by. It observes and never
// computes: Kueue's ClusterQueue and Cohort controllers write that status
// on their own schedule (a ClusterQueue's up to a wall second after one of
// its Workloads changes, as Kueue batches those updates), so informer
// handlers only keep the latest value each object showed, and the engine
// takes what changed once a step has settled. A Share event is therefore
// an observation stamped with the step's simulated time, never a decision.
type shareObserver struct {
	clock *VirtualClock

	mu sync.Mutex
	// latest is what the informers last showed; taken is what take last
	// returned for each object.
	latest map[shareKey]shareSeen
	taken  map[shareKey]int64
}

// shareKey names a ClusterQueue or a Cohort.
type shareKey struct{ kind, name string }

// shareSeen is one weightedShare and the wall time an informer showed it.
type shareSeen struct {
	share int64
	wall  time.Time
}

func newShareObserver(clock *VirtualClock) *shareObserver {
	return &shareObserver{clock: clock, latest: map[shareKey]shareSeen{}, taken: map[shareKey]int64{}}
}

// watch registers informer handlers on ClusterQueues and Cohorts (kueue
// v1beta2) of c; handlers only record the latest value under a mutex.
func (s *shareObserver) watch(ctx context.Context, c cache.Cache) error {
	for _, w := range []struct {
		obj     client.Object
		what    string
		handler func(any)
	}{
		{&kueue.ClusterQueue{}, "ClusterQueues", s.onClusterQueue},
		{&kueue.Cohort{}, "Cohorts", s.onCohort},
	} {
		inf, err := c.GetInformer(ctx, w.obj)
		if err != nil {
			return fmt.Errorf("watching the weighted shares of %s: %w", w.what, err)
		}
		h := w.handler
		if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
			AddFunc:    h,
			UpdateFunc: func(_, obj any) { h(obj) },
		}); err != nil {
			return fmt.Errorf("watching the weighted shares of %s: %w", w.what, err)
		}
	}
	return nil
}

// onClusterQueue records a ClusterQueue's weighted share, if Kueue
// published one (fair sharing on).
func (s *shareObserver) onClusterQueue(obj any) {
	cq, ok := obj.(*kueue.ClusterQueue)
	if !ok || cq.Status.FairSharing == nil {
		return
	}
	s.record(shareKey{shareKindClusterQueue, cq.Name}, cq.Status.FairSharing.WeightedShare)
}

// onCohort records a Cohort's weighted share, if Kueue published one.
func (s *shareObserver) onCohort(obj any) {
	co, ok := obj.(*kueue.Cohort)
	if !ok || co.Status.FairSharing == nil {
		return
	}
	s.record(shareKey{shareKindCohort, co.Name}, co.Status.FairSharing.WeightedShare)
}

func (s *shareObserver) record(k shareKey, share int64) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.latest[k]; ok && old.share == share {
		return // a status update that left the share alone
	}
	s.latest[k] = shareSeen{share: share, wall: now}
}

// take returns one Share event per ClusterQueue/Cohort whose weightedShare
// changed since the last take (or that was never taken), sorted by kind
// then name, stamped T = clock.Elapsed(); Wall is when an informer showed
// the value.
func (s *shareObserver) take() []record.Event {
	t := record.Duration(s.clock.Elapsed())
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []shareKey
	for k, v := range s.latest {
		if old, ok := s.taken[k]; !ok || old != v.share {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].kind != keys[j].kind {
			return keys[i].kind < keys[j].kind
		}
		return keys[i].name < keys[j].name
	})
	out := make([]record.Event, 0, len(keys))
	for _, k := range keys {
		v := s.latest[k]
		s.taken[k] = v.share
		share, wall := v.share, v.wall
		e := record.Event{T: t, Wall: &wall, Type: record.TypeShare, WeightedShare: &share}
		if k.kind == shareKindClusterQueue {
			e.ClusterQueue = k.name
		} else {
			e.Cohort = k.name
		}
		out = append(out, e)
	}
	return out
}
