package engine

import (
	"fmt"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// rayJobKind is a KubeRay RayJob: a Ray cluster of one head and the other
// replicas workers, plus the submitter pod KubeRay adds (K8sJobMode). Its
// run ends the default way, by its pods succeeding (the driver last).
type rayJobKind struct{}

var (
	_ workloadKind         = rayJobKind{}
	_ kindWithSidePods     = rayJobKind{}
	_ kindWithOperatorPods = rayJobKind{}
	_ kindWithOperators    = rayJobKind{}
)

func (rayJobKind) object(o objectSpec) (client.Object, error) {
	return &rayv1.RayJob{ObjectMeta: o.meta, Spec: rayv1.RayJobSpec{
		Entrypoint:               "python train.py",
		ShutdownAfterJobFinishes: true,
		Suspend:                  true,
		RayClusterSpec:           rayCluster(o),
		SubmitterPodTemplate:     ptr.To(submitterTemplate(o)),
	}}, nil
}

// sidePods: the submitter, with KubeRay's default requests.
func (rayJobKind) sidePods(o objectSpec) []corev1.PodTemplateSpec {
	return []corev1.PodTemplateSpec{submitterTemplate(o)}
}

// submitterTemplate is KubeRay's default submitter template with the
// arrival's labels, so that the submitter's pod maps back to the arrival
// like the cluster's pods (the default template carries no labels; a
// RayJob whose submitter went unseen never counted as running), and the
// engine's scheduling gate, like every pod of the run (hold.go).
func submitterTemplate(o objectSpec) corev1.PodTemplateSpec {
	t := fakes.DefaultSubmitterTemplate(fakeImage)
	own := o.template("")
	t.Labels, t.Spec.SchedulingGates = own.Labels, own.Spec.SchedulingGates
	return t
}

// fromTemplate: the cluster's pods, and in K8sJobMode the submitter's, are
// the arrival's. A template without spec.submitterPodTemplate gets
// KubeRay's default one, which Kueue counts alike, so that the
// submitter's pod carries them too. The job starts suspended, as the
// engine's own RayJobs do (Kueue unsuspends it); its submissionMode,
// entrypoint and cluster are as written.
func (rayJobKind) fromTemplate(o objectSpec, obj client.Object) (client.Object, error) {
	job, ok := obj.(*rayv1.RayJob)
	if !ok {
		return nil, notOfKind(obj, "ray.io/v1 RayJob")
	}
	if job.Spec.RayClusterSpec == nil {
		return nil, fmt.Errorf("the RayJob has no spec.rayClusterSpec: kueue-sim runs a RayJob on a cluster of its own, not one a clusterSelector picks")
	}
	o.stamp(job)
	stampRayCluster(o, job.Spec.RayClusterSpec)
	if fakes.SubmitsWithJob(job) {
		t := fakes.SubmitterTemplate(job)
		o.stampPod(&t)
		job.Spec.SubmitterPodTemplate = &t
	}
	job.Spec.Suspend = true
	return job, nil
}

// operatorPods: the head pod as KubeRay makes it (with the submitter
// container in SidecarMode, the autoscaler sidecar with autoscaling), and
// in K8sJobMode the submitter's pod.
func (rayJobKind) operatorPods(obj client.Object, sets []scenarios.TemplatePodSet) []scenarios.TemplatePodSet {
	job, ok := obj.(*rayv1.RayJob)
	if !ok || job.Spec.RayClusterSpec == nil {
		return sets
	}
	sets = withRayHead(sets, fakes.HeadPodTemplate(fakes.RayJobClusterSpec(job)))
	if fakes.SubmitsWithJob(job) {
		sets = append(sets, scenarios.TemplatePodSet{Name: rayJobSubmitterPodSet, Count: 1, Template: fakes.SubmitterTemplate(job)})
	}
	return sets
}

// rayJobSubmitterPodSet is the name Kueue gives a RayJob's submitter pod
// set.
const rayJobSubmitterPodSet = "submitter"

// operators: KubeRay runs RayJobs, and Kueue's RayJob integration watches
// the RayClusters they own, so their CRD must be served too.
func (rayJobKind) operators() []fakes.Kind { return []fakes.Kind{fakes.RayJob, fakes.RayCluster} }
