package webhook

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// Facts answers what the rules need to know about the cluster. An absent
// object is (nil, nil); an error means the answer is unknown.
type Facts interface {
	// DataScienceCluster returns the active DataScienceCluster
	// (dscv1.Active), or nil when there is none.
	DataScienceCluster(ctx context.Context) (*dscv1.DataScienceCluster, error)
	Namespace(ctx context.Context, name string) (*corev1.Namespace, error)
	HardwareProfile(ctx context.Context, namespace, name string) (*infrav1.HardwareProfile, error)
	LocalQueue(ctx context.Context, namespace, name string) (*kueue.LocalQueue, error)
	ClusterQueue(ctx context.Context, name string) (*kueue.ClusterQueue, error)
	// ClusterQueues and Cohorts list every one (for cohort trees).
	ClusterQueues(ctx context.Context) ([]kueue.ClusterQueue, error)
	Cohorts(ctx context.Context) ([]kueue.Cohort, error)
}

// ReaderFacts reads Facts from the API server. Give it an uncached reader
// (the manager's APIReader): an object created just before a workload that
// refers to it must be seen.
type ReaderFacts struct {
	Reader client.Reader
}

var _ Facts = ReaderFacts{}

// absent reports errors that mean "there is no such object": not found, or
// its CRD is not installed.
func absent(err error) bool {
	return apierrors.IsNotFound(err) || apimeta.IsNoMatchError(err)
}

func (f ReaderFacts) DataScienceCluster(ctx context.Context) (*dscv1.DataScienceCluster, error) {
	var list dscv1.DataScienceClusterList
	if err := f.Reader.List(ctx, &list); err != nil {
		if absent(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("listing DataScienceClusters: %w", err)
	}
	active, _ := dscv1.Active(list.Items)
	return active, nil
}

// get reads one object into obj; found is false when it is absent.
func get(ctx context.Context, r client.Reader, key types.NamespacedName, obj client.Object, what string) (found bool, err error) {
	if err := r.Get(ctx, key, obj); err != nil {
		if absent(err) {
			return false, nil
		}
		return false, fmt.Errorf("reading %s %s: %w", what, key, err)
	}
	return true, nil
}

func (f ReaderFacts) Namespace(ctx context.Context, name string) (*corev1.Namespace, error) {
	ns := &corev1.Namespace{}
	if ok, err := get(ctx, f.Reader, types.NamespacedName{Name: name}, ns, "Namespace"); !ok {
		return nil, err
	}
	return ns, nil
}

func (f ReaderFacts) HardwareProfile(ctx context.Context, namespace, name string) (*infrav1.HardwareProfile, error) {
	p := &infrav1.HardwareProfile{}
	if ok, err := get(ctx, f.Reader, types.NamespacedName{Namespace: namespace, Name: name}, p, "HardwareProfile"); !ok {
		return nil, err
	}
	return p, nil
}

func (f ReaderFacts) LocalQueue(ctx context.Context, namespace, name string) (*kueue.LocalQueue, error) {
	lq := &kueue.LocalQueue{}
	if ok, err := get(ctx, f.Reader, types.NamespacedName{Namespace: namespace, Name: name}, lq, "LocalQueue"); !ok {
		return nil, err
	}
	return lq, nil
}

func (f ReaderFacts) ClusterQueue(ctx context.Context, name string) (*kueue.ClusterQueue, error) {
	cq := &kueue.ClusterQueue{}
	if ok, err := get(ctx, f.Reader, types.NamespacedName{Name: name}, cq, "ClusterQueue"); !ok {
		return nil, err
	}
	return cq, nil
}

func (f ReaderFacts) ClusterQueues(ctx context.Context) ([]kueue.ClusterQueue, error) {
	var list kueue.ClusterQueueList
	if err := f.Reader.List(ctx, &list); err != nil {
		return nil, fmt.Errorf("listing ClusterQueues: %w", err)
	}
	return list.Items, nil
}

func (f ReaderFacts) Cohorts(ctx context.Context) ([]kueue.Cohort, error) {
	var list kueue.CohortList
	if err := f.Reader.List(ctx, &list); err != nil {
		if absent(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("listing Cohorts: %w", err)
	}
	return list.Items, nil
}
