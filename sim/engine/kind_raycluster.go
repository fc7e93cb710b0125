package engine

import (
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// rayClusterKind is a KubeRay RayCluster: one head and the other replicas
// workers. It runs until deleted.
type rayClusterKind struct{ longRunning }

var (
	_ workloadKind         = rayClusterKind{}
	_ kindWithEnd          = rayClusterKind{}
	_ kindWithOperatorPods = rayClusterKind{}
	_ kindWithOperators    = rayClusterKind{}
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

// fromTemplate: the head's and workers' pods are the arrival's; the
// cluster starts suspended, as the engine's own RayClusters do (Kueue
// unsuspends it); enableInTreeAutoscaling and the groups are as written.
func (rayClusterKind) fromTemplate(o objectSpec, obj client.Object) (client.Object, error) {
	rc, ok := obj.(*rayv1.RayCluster)
	if !ok {
		return nil, notOfKind(obj, "ray.io/v1 RayCluster")
	}
	o.stamp(rc)
	stampRayCluster(o, &rc.Spec)
	rc.Spec.Suspend = ptr.To(true)
	return rc, nil
}

// operatorPods: the head pod as KubeRay makes it, with the autoscaler
// sidecar when autoscaling is on.
func (rayClusterKind) operatorPods(obj client.Object, sets []scenarios.TemplatePodSet) []scenarios.TemplatePodSet {
	rc, ok := obj.(*rayv1.RayCluster)
	if !ok {
		return sets
	}
	return withRayHead(sets, fakes.HeadPodTemplate(&rc.Spec))
}

// stampRayCluster stamps the head's and every worker group's pod template
// of a templated RayCluster or RayJob.
func stampRayCluster(o objectSpec, spec *rayv1.RayClusterSpec) {
	o.stampPod(&spec.HeadGroupSpec.Template)
	for i := range spec.WorkerGroupSpecs {
		o.stampPod(&spec.WorkerGroupSpecs[i].Template)
	}
}

// rayHeadPodSet is the name Kueue gives a Ray cluster's head pod set.
const rayHeadPodSet = "head"

// withRayHead is sets with the head pod set's template replaced by head,
// the head pod KubeRay makes.
func withRayHead(sets []scenarios.TemplatePodSet, head corev1.PodTemplateSpec) []scenarios.TemplatePodSet {
	for i := range sets {
		if sets[i].Name == rayHeadPodSet {
			sets[i].Template = head
			break
		}
	}
	return sets
}

// operators: KubeRay runs RayClusters (a fake one here).
func (rayClusterKind) operators() []fakes.Kind { return []fakes.Kind{fakes.RayCluster} }
