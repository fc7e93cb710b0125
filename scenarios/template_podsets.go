package scenarios

import (
	"encoding/json"
	"strings"

	kftov1 "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// TemplatePodSet is one role of a template's pods: the pods that share one
// pod template.
type TemplatePodSet struct {
	// Name is the role, named as Kueue names the pod set of its Workload.
	Name string
	// Count is the number of the role's pods.
	Count int32
	// Template is the role's pod template, a copy of the object's.
	Template corev1.PodTemplateSpec

	// spec is the path of the pod spec in the object.
	spec *field.Path
	// model says the first container is an InferenceService's
	// spec.predictor.model.
	model bool
}

// mainPodSet is the name Kueue gives the pod set of a single-role kind.
const mainPodSet = string(kueue.DefaultPodSetName)

// KServeContainerName is the name KServe, and kueue-sim's fake of it, give
// the container of an InferenceService's spec.predictor.model.
const KServeContainerName = "kserve-container"

// PodSets are the roles of the template's object and their pods, in the
// order of the pod sets of the Workload Kueue makes of it:
//
//   - Job: main, min(spec.parallelism (default 1), spec.completions when
//     set) pods of spec.template.
//   - PyTorchJob: master, then worker, each when written, with the
//     replica spec's replicas (default 1) pods of its template.
//   - RayCluster, and a RayJob's spec.rayClusterSpec: head, 1 pod, then
//     each worker group, named as its groupName in lower case, with
//     replicas pods (0 when unset, as the API server defaults it; the
//     loader refuses an unset replicas beside a minReplicas over 0)
//     times numOfHosts (when over 1). A RayJob's submitter is not among
//     them (K8sJobMode's submitter Job, SidecarMode's container on the
//     head), nor the autoscaler container KubeRay adds to the head with
//     enableInTreeAutoscaling: the engine adds what the served Kueue
//     counts. A RayJob without rayClusterSpec has none.
//   - Workload: spec.podSets, each with its count and template, "main"
//     for a pod set without a name.
//   - Notebook: main, 1 pod of spec.template.
//   - InferenceService: main, spec.predictor.minReplicas pods (default 1,
//     and at least 1, as KServe's raw deployment mode runs), whose spec is
//     spec.predictor's pod-spec fields with the container of
//     spec.predictor.model first, named kserve-container (as the fake
//     KServe makes the predictor's Deployment). Kueue queues each of these
//     pods as a Workload of its own.
//
// The templates are copies: the caller may change them. A Notebook or
// InferenceService whose fields do not decode (one Load refuses) has
// none.
func (t *LoadedTemplate) PodSets() []TemplatePodSet {
	spec := field.NewPath("spec")
	switch o := t.Object.(type) {
	case *batchv1.Job:
		n := deref(o.Spec.Parallelism, 1)
		if o.Spec.Completions != nil && *o.Spec.Completions < n {
			n = *o.Spec.Completions
		}
		return []TemplatePodSet{podSet(mainPodSet, n, &o.Spec.Template, spec.Child("template"))}
	case *kftov1.PyTorchJob:
		var out []TemplatePodSet
		for _, rt := range []kftov1.ReplicaType{kftov1.PyTorchJobReplicaTypeMaster, kftov1.PyTorchJobReplicaTypeWorker} {
			if rs := o.Spec.PyTorchReplicaSpecs[rt]; rs != nil {
				out = append(out, podSet(strings.ToLower(string(rt)), deref(rs.Replicas, 1), &rs.Template,
					spec.Child("pytorchReplicaSpecs").Key(string(rt)).Child("template")))
			}
		}
		return out
	case *rayv1.RayCluster:
		return rayPodSets(&o.Spec, spec)
	case *rayv1.RayJob:
		if o.Spec.RayClusterSpec == nil {
			return nil
		}
		return rayPodSets(o.Spec.RayClusterSpec, spec.Child("rayClusterSpec"))
	case *kueue.Workload:
		out := make([]TemplatePodSet, 0, len(o.Spec.PodSets))
		for i := range o.Spec.PodSets {
			ps := &o.Spec.PodSets[i]
			name := string(ps.Name)
			if name == "" {
				name = mainPodSet
			}
			out = append(out, podSet(name, ps.Count, &ps.Template, spec.Child("podSets").Index(i).Child("template")))
		}
		return out
	case *unstructured.Unstructured:
		switch o.GetKind() {
		case string(KindNotebook):
			var tmpl corev1.PodTemplateSpec
			if decodeField(o, &tmpl, "spec", "template") != nil {
				return nil
			}
			return []TemplatePodSet{podSet(mainPodSet, 1, &tmpl, spec.Child("template"))}
		case string(KindInferenceService):
			var pred manifests.Predictor
			if decodeField(o, &pred, "spec", "predictor") != nil {
				return nil
			}
			tmpl := corev1.PodTemplateSpec{Spec: pred.PodSpec}
			ps := TemplatePodSet{Name: mainPodSet, Count: max(deref(pred.MinReplicas, 1), 1),
				spec: spec.Child("predictor")}
			if pred.Model != nil {
				c := pred.Model.Container
				c.Name = KServeContainerName
				tmpl.Spec.Containers = append([]corev1.Container{c}, tmpl.Spec.Containers...)
				ps.model = true
			}
			ps.Template = *tmpl.DeepCopy()
			return []TemplatePodSet{ps}
		}
	}
	return nil
}

// rayPodSets are the head and worker groups of a Ray cluster at p.
func rayPodSets(rc *rayv1.RayClusterSpec, p *field.Path) []TemplatePodSet {
	out := []TemplatePodSet{podSet("head", 1, &rc.HeadGroupSpec.Template, p.Child("headGroupSpec", "template"))}
	for i := range rc.WorkerGroupSpecs {
		g := &rc.WorkerGroupSpecs[i]
		n := deref(g.Replicas, 0)
		if g.NumOfHosts > 1 {
			n *= g.NumOfHosts
		}
		out = append(out, podSet(strings.ToLower(g.GroupName), n, &g.Template, p.Child("workerGroupSpecs").Index(i).Child("template")))
	}
	return out
}

// podSet is a role of n pods of a copy of tmpl, written at path.
func podSet(name string, n int32, tmpl *corev1.PodTemplateSpec, path *field.Path) TemplatePodSet {
	return TemplatePodSet{Name: name, Count: n, Template: *tmpl.DeepCopy(), spec: path.Child("spec")}
}

func deref(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}

// decodeField decodes the field of u at path into out.
func decodeField(u *unstructured.Unstructured, out any, path ...string) error {
	v, _, err := unstructured.NestedFieldNoCopy(u.Object, path...)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

// resourcesAt is one container's requests or limits with the path of the
// list in the object.
type resourcesAt struct {
	path *field.Path
	list corev1.ResourceList
}

// resources are the requests and limits of the role's containers and init
// containers, each with its path in the object.
func (ps TemplatePodSet) resources() []resourcesAt {
	var out []resourcesAt
	add := func(p *field.Path, r corev1.ResourceRequirements) {
		if len(r.Requests) > 0 {
			out = append(out, resourcesAt{p.Child("resources", "requests"), r.Requests})
		}
		if len(r.Limits) > 0 {
			out = append(out, resourcesAt{p.Child("resources", "limits"), r.Limits})
		}
	}
	for i, c := range ps.Template.Spec.InitContainers {
		add(ps.spec.Child("initContainers").Index(i), c.Resources)
	}
	for i, c := range ps.Template.Spec.Containers {
		switch {
		case ps.model && i == 0:
			add(ps.spec.Child("model"), c.Resources)
		case ps.model:
			add(ps.spec.Child("containers").Index(i-1), c.Resources)
		default:
			add(ps.spec.Child("containers").Index(i), c.Resources)
		}
	}
	return out
}

// resourceNames are the resources the template's pods ask for: requests
// and limits (a limit stands for a missing request) of every container
// and init container, and the pods' overhead.
func (t *LoadedTemplate) resourceNames() map[string]bool {
	out := map[string]bool{}
	for _, ps := range t.PodSets() {
		for _, r := range ps.resources() {
			for name := range r.list {
				out[string(name)] = true
			}
		}
		for name := range ps.Template.Spec.Overhead {
			out[string(name)] = true
		}
	}
	return out
}
