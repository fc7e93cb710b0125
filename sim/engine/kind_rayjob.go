package engine

import (
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// rayJobKind is a KubeRay RayJob: a Ray cluster of one head and the other
// replicas workers, plus the submitter pod KubeRay adds (K8sJobMode). Its
// run ends the default way, by its pods succeeding (the driver last).
type rayJobKind struct{}

var (
	_ workloadKind      = rayJobKind{}
	_ kindWithSidePods  = rayJobKind{}
	_ kindWithOperators = rayJobKind{}
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

// operators: KubeRay runs RayJobs, and Kueue's RayJob integration watches
// the RayClusters they own, so their CRD must be served too.
func (rayJobKind) operators() []fakes.Kind { return []fakes.Kind{fakes.RayJob, fakes.RayCluster} }
