package engine

import (
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// rayJobKind is a KubeRay RayJob: a Ray cluster of one head and the other
// replicas workers, plus the submitter pod KubeRay adds (K8sJobMode). Its
// run ends the default way, by its pods succeeding (the driver last).
type rayJobKind struct{}

var (
	_ workloadKind      = rayJobKind{}
	_ kindWithPodCount  = rayJobKind{}
	_ kindWithOperators = rayJobKind{}
)

func (rayJobKind) object(o objectSpec) (client.Object, error) {
	return &rayv1.RayJob{ObjectMeta: o.meta, Spec: rayv1.RayJobSpec{
		Entrypoint:               "python train.py",
		ShutdownAfterJobFinishes: true,
		Suspend:                  true,
		RayClusterSpec:           rayCluster(o),
	}}, nil
}

// podCount counts the submitter pod with the cluster's.
func (rayJobKind) podCount(st *scenarios.Stream) int {
	return int(*st.Replicas) + 1
}

// operators: KubeRay runs RayJobs, and Kueue's RayJob integration watches
// the RayClusters they own, so their CRD must be served too.
func (rayJobKind) operators() []fakes.Kind { return []fakes.Kind{fakes.RayJob, fakes.RayCluster} }
