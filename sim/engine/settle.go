package engine

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/settle"
)

// settleConfig wires the settle to the run: the target's readers of etcd,
// the observer the settle drains at every poll, the engine's own workers
// (completing evictions, Kueue's reservations in flight), Kueue's
// scheduler gate and the pods held for the instant (hold.go). The
// observer, the evictor, the busy index and the seen marks exist by now.
func (r *Runner) settleConfig() settle.Config {
	t := r.t
	cfg := settle.Config{
		Timings:          settle.DefaultTimings(),
		Revision:         t.Revision,
		Direct:           t.Client,
		DecisionRevision: t.DecisionRevision,
		StatusOnly:       settle.StatusOnly(t.AdmissionFairSharing),
		Index:            r.index,
		Observe:          r.obs.drain,
		Others:           []func() settle.Busy{r.evict.busy},
		Progress:         func() int64 { return r.obs.decisions },
		Attempts:         settle.KueueInadmissibleCycles,
		FixedPointCycles: fixedPointCycles(r.s),
		Release:          r.releaseHeld,
	}
	if t.Unseen != nil {
		cfg.Unseen = func(ctx context.Context) (string, error) { return t.Unseen(ctx, r.seen.Get) }
		cfg.Timings = settle.SeenTimings()
	}
	if t.Gate != nil {
		// The settle resumes Kueue's scheduler after each evicting
		// cycle (lock-step is turned on in Run). A scheduler blocked
		// until admitted workloads' pods are ready tries nothing before a
		// later instant brings that, as a paused one waits for Resume.
		gate := t.Gate
		cfg.Resume = gate.Resume
		cfg.Paused = func() bool { return gate.Paused() || gate.BlockedOnPodsReady() }
	}
	if t.Reserving != nil {
		var cqs []string
		for _, cq := range r.s.ClusterQueueCohorts() {
			cqs = append(cqs, cq.Name)
		}
		cfg.Others = append(cfg.Others, func() settle.Busy {
			return r.obs.reserved.inFlight(cqs, t.Reserving, r.obs.observed)
		})
	}
	return cfg
}

// fixedPointCycles is settle.Config.FixedPointCycles for s: twice the
// cycles a head's flavor search can take to come round, one per
// ResourceFlavor and one more, and at least three.
func fixedPointCycles(s *scenarios.Scenario) int {
	return max(3, 2*(len(s.FlavorNodeLabels())+1))
}

// streamObjects are one object of each kind the run submits (the first
// arrival of each stream's): the seen marks follow their kinds too.
func (r *Runner) streamObjects(arrivals []Arrival) []client.Object {
	var objs []client.Object
	seen := map[*scenarios.Stream]bool{}
	for _, a := range arrivals {
		if seen[a.Stream] {
			continue
		}
		seen[a.Stream] = true
		if obj, err := WorkloadObject(a, r.priorities); err == nil {
			objs = append(objs, obj)
		}
	}
	return objs
}
