package engine

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// setUp creates the scenario's cluster objects and waits until the control
// plane has taken them in.
func (r *Runner) setUp(ctx context.Context) error {
	for _, obj := range ClusterObjects(r.s) {
		if err := r.t.Client.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating %T %s: %w", obj, obj.GetName(), err)
		}
	}
	if busy, err := r.settle.wait(ctx, nil); err != nil {
		return fmt.Errorf("waiting for the cluster to take the scenario's queues in: %w", err)
	} else if busy != "" {
		return fmt.Errorf("the cluster did not settle after creating the scenario's queues: %s", busy)
	}
	return nil
}

// header opens the log: the scenario, its seed, and the capacity and quotas
// reports measure against.
func (r *Runner) header() record.Event {
	seed := r.seed
	e := record.Event{Type: record.TypeRun, Scenario: r.s.Name, Seed: &seed, Pacing: string(r.pacing), Realtime: r.realtime,
		Capacity: map[string]map[string]float64{}, Quotas: map[string]map[string]map[string]float64{},
		Cohorts: map[string]string{}, Weights: map[string]float64{},
		CohortParents: map[string]string{}, CohortWeights: map[string]float64{},
		FairSharing: r.s.Cluster.Kueue["fairSharing"] != nil}
	for _, c := range r.s.Queues.Cohorts {
		if c.Parent != "" {
			e.CohortParents[c.Name] = c.Parent
		}
		e.CohortWeights[c.Name] = 1
		if c.FairSharingWeight != nil {
			e.CohortWeights[c.Name] = c.FairSharingWeight.AsApproximateFloat64()
		}
	}
	for _, f := range r.s.Queues.ResourceFlavors {
		capa := map[string]float64{}
		for _, pool := range r.s.Cluster.NodePools {
			if !matches(pool.Labels, f.NodeLabels) {
				continue
			}
			for res, q := range pool.Allocatable {
				capa[string(res)] += q.AsApproximateFloat64() * float64(pool.Count)
			}
		}
		e.Capacity[f.Name] = capa
	}
	for _, cq := range r.s.Queues.ClusterQueues {
		quotas := map[string]map[string]float64{}
		for _, g := range cq.ResourceGroups {
			for _, f := range g.Flavors {
				if quotas[f.Name] == nil {
					quotas[f.Name] = map[string]float64{}
				}
				for res, q := range f.Resources {
					quotas[f.Name][string(res)] = q.Nominal.AsApproximateFloat64()
				}
			}
		}
		e.Quotas[cq.Name] = quotas
		e.Cohorts[cq.Name] = cq.Cohort
		e.Weights[cq.Name] = 1
		if cq.FairSharingWeight != nil {
			e.Weights[cq.Name] = cq.FairSharingWeight.AsApproximateFloat64()
		}
	}
	return e
}

// matches tells whether labels carry every key and value of want.
func matches(labels, want map[string]string) bool {
	for k, v := range want {
		if labels[k] != v {
			return false
		}
	}
	return true
}
