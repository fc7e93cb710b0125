package engine

import (
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// rayClusterKind is a KubeRay RayCluster: one head and the other replicas
// workers. It runs until deleted.
type rayClusterKind struct{ longRunning }

var (
	_ workloadKind      = rayClusterKind{}
	_ kindWithEnd       = rayClusterKind{}
	_ kindWithOperators = rayClusterKind{}
)

func (rayClusterKind) object(o objectSpec) (client.Object, error) {
	spec := rayCluster(o)
	spec.Suspend = ptr.To(true)
	return &rayv1.RayCluster{ObjectMeta: o.meta, Spec: *spec}, nil
}

// rayCluster is the Ray cluster of a RayCluster or a RayJob: one head and
// the other replicas in one worker group.
func rayCluster(o objectSpec) *rayv1.RayClusterSpec {
	head := o.template("ray-head")
	head.Spec.RestartPolicy = corev1.RestartPolicyAlways
	spec := &rayv1.RayClusterSpec{
		HeadGroupSpec: rayv1.HeadGroupSpec{RayStartParams: map[string]string{}, Template: head},
	}
	if o.replicas > 1 {
		w := o.template("ray-worker")
		w.Spec.RestartPolicy = corev1.RestartPolicyAlways
		spec.WorkerGroupSpecs = []rayv1.WorkerGroupSpec{{
			GroupName: "workers", Replicas: ptr.To(o.replicas - 1),
			MinReplicas: ptr.To(o.replicas - 1), MaxReplicas: ptr.To(o.replicas - 1),
			RayStartParams: map[string]string{}, Template: w,
		}}
	}
	return spec
}

// operators: KubeRay runs RayClusters (a fake one here).
func (rayClusterKind) operators() []fakes.Kind { return []fakes.Kind{fakes.RayCluster} }
