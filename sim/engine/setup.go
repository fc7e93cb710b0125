package engine

import (
	"context"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// setUp creates the scenario's cluster objects and waits until the control
// plane has taken them in.
func (r *Runner) setUp(ctx context.Context) error {
	for _, obj := range ClusterObjects(r.s) {
		if err := r.t.Client.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating %T %s%s: %w", obj, obj.GetName(), manifestSource(r.s, obj), err)
		}
	}
	if busy, err := r.settle.Wait(ctx, nil); err != nil {
		return fmt.Errorf("waiting for the cluster to take the scenario's queues in: %w", err)
	} else if !busy.IsZero() {
		return fmt.Errorf("the cluster did not settle after creating the scenario's queues: %s", busy)
	}
	if r.t.Requeues != nil {
		// Creating the queues asked Kueue to retry inadmissible
		// workloads; there are none yet.
		r.t.Requeues.Process(ctx)
	}
	return nil
}

// manifestSource is " (FILE:LINE (document N))" when obj is one of the
// manifests', else "".
func manifestSource(s *scenarios.Scenario, obj client.Object) string {
	if s.Loaded.Manifests == nil {
		return ""
	}
	for _, o := range s.Loaded.Manifests.Objects {
		if reflect.TypeOf(o.Obj) == reflect.TypeOf(obj) && o.Obj.GetName() == obj.GetName() && o.Obj.GetNamespace() == obj.GetNamespace() {
			return " (" + o.Source.String() + ")"
		}
	}
	return ""
}

// header opens the log: the scenario, its seed, and the capacity and quotas
// reports measure against.
func (r *Runner) header() record.Event {
	seed := r.seed
	e := record.Event{Type: record.TypeRun, Scenario: r.s.Name, Seed: &seed, KueueVersion: kueuerelease.Compiled(), Pacing: record.PacingStrict, Realtime: r.realtime,
		Capacity: map[string]map[string]float64{}, Quotas: map[string]map[string]map[string]float64{},
		Cohorts: map[string]string{}, Weights: map[string]float64{},
		CohortParents: map[string]string{}, CohortWeights: map[string]float64{},
		FairSharing: r.s.KueueSettings()["fairSharing"] != nil}
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
	r.manifestHeader(&e)
	return e
}

// manifestHeader adds the manifests' flavors, Cohorts and ClusterQueues to
// the log's header, as header does the schema's.
func (r *Runner) manifestHeader(e *record.Event) {
	set := r.s.Loaded.Manifests
	for _, c := range set.Cohorts() {
		if p := c.Obj.Spec.ParentName; p != "" {
			e.CohortParents[c.Obj.Name] = string(p)
		}
		e.CohortWeights[c.Obj.Name] = weightOf(c.Obj.Spec.FairSharing)
	}
	for _, f := range set.ResourceFlavors() {
		capa := map[string]float64{}
		for _, pool := range r.s.Cluster.NodePools {
			if !matches(pool.Labels, f.Obj.Spec.NodeLabels) {
				continue
			}
			for res, q := range pool.Allocatable {
				capa[string(res)] += q.AsApproximateFloat64() * float64(pool.Count)
			}
		}
		e.Capacity[f.Obj.Name] = capa
	}
	for _, cq := range set.ClusterQueues() {
		quotas := map[string]map[string]float64{}
		for _, g := range cq.Obj.Spec.ResourceGroups {
			for _, f := range g.Flavors {
				name := string(f.Name)
				if quotas[name] == nil {
					quotas[name] = map[string]float64{}
				}
				for _, q := range f.Resources {
					quotas[name][string(q.Name)] = q.NominalQuota.AsApproximateFloat64()
				}
			}
		}
		e.Quotas[cq.Obj.Name] = quotas
		e.Cohorts[cq.Obj.Name] = string(cq.Obj.Spec.CohortName)
		e.Weights[cq.Obj.Name] = weightOf(cq.Obj.Spec.FairSharing)
	}
}

// weightOf is a fair-sharing weight: 1 unless set.
func weightOf(fs *kueue.FairSharing) float64 {
	if fs == nil || fs.Weight == nil {
		return 1
	}
	return fs.Weight.AsApproximateFloat64()
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
