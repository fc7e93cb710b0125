package webhook

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// Snapshot holds the objects the rules read, in memory: it answers Facts
// without an API server (`sim lint` on a scenario, unit tests).
type Snapshot struct {
	DataScienceClusters []dscv1.DataScienceCluster
	Namespaces          []corev1.Namespace
	HardwareProfiles    []infrav1.HardwareProfile
	LocalQueues         []kueue.LocalQueue
	ClusterQueues       []kueue.ClusterQueue
	Cohorts             []kueue.Cohort
}

// Facts answers from the snapshot: what it lacks is absent.
func (s *Snapshot) Facts() Facts { return snapshotFacts{s} }

type snapshotFacts struct{ s *Snapshot }

var _ Facts = snapshotFacts{}

func (f snapshotFacts) DataScienceCluster(context.Context) (*dscv1.DataScienceCluster, error) {
	active, _ := dscv1.Active(f.s.DataScienceClusters)
	return active, nil
}

func (f snapshotFacts) Namespace(_ context.Context, name string) (*corev1.Namespace, error) {
	for i := range f.s.Namespaces {
		if f.s.Namespaces[i].Name == name {
			return &f.s.Namespaces[i], nil
		}
	}
	return nil, nil
}

func (f snapshotFacts) HardwareProfile(_ context.Context, namespace, name string) (*infrav1.HardwareProfile, error) {
	for i := range f.s.HardwareProfiles {
		if p := &f.s.HardwareProfiles[i]; p.Namespace == namespace && p.Name == name {
			return p, nil
		}
	}
	return nil, nil
}

func (f snapshotFacts) LocalQueue(_ context.Context, namespace, name string) (*kueue.LocalQueue, error) {
	for i := range f.s.LocalQueues {
		if lq := &f.s.LocalQueues[i]; lq.Namespace == namespace && lq.Name == name {
			return lq, nil
		}
	}
	return nil, nil
}

func (f snapshotFacts) ClusterQueue(_ context.Context, name string) (*kueue.ClusterQueue, error) {
	for i := range f.s.ClusterQueues {
		if f.s.ClusterQueues[i].Name == name {
			return &f.s.ClusterQueues[i], nil
		}
	}
	return nil, nil
}

func (f snapshotFacts) ClusterQueues(context.Context) ([]kueue.ClusterQueue, error) {
	return f.s.ClusterQueues, nil
}

func (f snapshotFacts) Cohorts(context.Context) ([]kueue.Cohort, error) { return f.s.Cohorts, nil }
