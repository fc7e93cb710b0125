package engine

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/scenarios"
)

// fakeImage names the image of every simulated container; nothing pulls it.
const fakeImage = "registry.invalid/kueue-sim/workload:latest"

// WorkloadObject builds the object an arrival submits: a Job, PyTorchJob,
// RayJob, RayCluster, Notebook, InferenceService or raw Workload (one
// kind_*.go file each), labelled so that its Workload and pods map back to
// the arrival. priorities maps WorkloadPriorityClass names to values (for
// raw Workloads).
//
// A templated stream's arrival submits a copy of the stream's object, made
// the arrival's by its kind's fromTemplate.
func WorkloadObject(a Arrival, priorities map[string]int32) (client.Object, error) {
	k, err := lookupKind(a.Stream.Kind)
	if err != nil {
		return nil, fmt.Errorf("building workload %s: %w", a.Name, err)
	}
	o := newObjectSpec(a, priorities)
	if a.Stream.Template == nil {
		return k.object(o)
	}
	tmpl := templateObject(a.Stream)
	if tmpl == nil {
		return nil, fmt.Errorf("building workload %s: the template of stream %s is not loaded", a.Name, a.Stream.Name)
	}
	obj, err := k.fromTemplate(o, tmpl.DeepCopyObject().(client.Object))
	if err != nil {
		return nil, fmt.Errorf("building workload %s from its stream's template: %w", a.Name, err)
	}
	return obj, nil
}

// PodCount is the number of pods a running workload of the stream has: its
// replicas, and for a RayJob the submitter pod KubeRay adds (K8sJobMode).
// A templated stream's come from its object: the pods of each of its pod
// sets, and those its operator adds (templatePods).
func PodCount(st *scenarios.Stream) int {
	if st.Template != nil {
		n := 0
		for _, ps := range templatePods(st) {
			n += int(ps.Count)
		}
		return n
	}
	return int(*st.Replicas) + len(sidePods(st))
}

// totalRequests is what a workload of the stream asks for in all: the
// stream's requests for each replica, and its kind's other pods' requests.
// A templated stream's pods ask for what Kubernetes (and Kueue) count for
// a pod: its containers' requests, or its init containers' where more
// (sidecars, restartPolicy Always, added to both), plus its overhead.
func totalRequests(st *scenarios.Stream) map[string]float64 {
	out := map[string]float64{}
	if st.Template != nil {
		for _, ps := range templatePods(st) {
			for res, q := range resourcehelper.PodRequests(&corev1.Pod{Spec: ps.Template.Spec}, resourcehelper.PodResourcesOptions{}) {
				out[string(res)] += q.AsApproximateFloat64() * float64(ps.Count)
			}
		}
		return out
	}
	for res, q := range st.Requests {
		out[string(res)] = q.AsApproximateFloat64() * float64(*st.Replicas)
	}
	for _, t := range sidePods(st) {
		for _, c := range t.Spec.Containers {
			for res, q := range c.Resources.Requests {
				out[string(res)] += q.AsApproximateFloat64()
			}
		}
	}
	return out
}

// sidePods are the templates of a stream's pods besides one per replica.
func sidePods(st *scenarios.Stream) []corev1.PodTemplateSpec {
	if k, ok := kindOf(st.Kind).(kindWithSidePods); ok {
		return k.sidePods(objectSpec{stream: st, replicas: *st.Replicas})
	}
	return nil
}

// objectSpec is what a kind builds an arrival's object from: the metadata
// every kind's object carries, the stream, its replicas and the
// WorkloadPriorityClass values.
type objectSpec struct {
	meta       metav1.ObjectMeta
	stream     *scenarios.Stream
	replicas   int32
	priorities map[string]int32
}

func newObjectSpec(a Arrival, priorities map[string]int32) objectSpec {
	st := a.Stream
	meta := metav1.ObjectMeta{
		Name:      a.Name,
		Namespace: a.Team.Namespace,
		Labels:    map[string]string{WorkloadLabel: a.Name, StreamLabel: st.Name},
	}
	if st.Queue != "" {
		meta.Labels[QueueNameLabel] = st.Queue
	}
	if st.PriorityClass != "" {
		meta.Labels[PriorityClassLabel] = st.PriorityClass
	}
	if st.HardwareProfile != "" {
		meta.Annotations = map[string]string{infrav1.HardwareProfileNameAnnotation: st.HardwareProfile}
	}
	return objectSpec{meta: meta, stream: st, replicas: ptr.Deref(st.Replicas, 0), priorities: priorities}
}

// template is a pod template with one container of the given name: the
// stream's requests and required node affinity, the arrival's labels,
// restart policy Never, and the scheduling gate that holds its pods until
// the engine releases the instant's pods together (hold.go).
func (o objectSpec) template(container string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: o.podLabels()},
		Spec: corev1.PodSpec{
			SchedulingGates: []corev1.PodSchedulingGate{{Name: InstantGate}},
			RestartPolicy:   corev1.RestartPolicyNever,
			Containers: []corev1.Container{{
				Name: container, Image: fakeImage, Resources: scenarios.PodResources(o.stream.Requests),
			}},
			Affinity: requiredAffinity(o.stream.RequiredNodeAffinity),
		},
	}
}

// unstructuredObject is an object of a kind whose Go types the module
// does not import (Notebook, InferenceService).
func unstructuredObject(apiVersion, kind string, meta metav1.ObjectMeta, spec map[string]any) (client.Object, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&struct {
		metav1.TypeMeta   `json:",inline"`
		metav1.ObjectMeta `json:"metadata"`
		Spec              any `json:"spec"`
	}{metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}, meta, spec})
	if err != nil {
		return nil, fmt.Errorf("building %s %s: %w", kind, meta.Name, err)
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// requiredAffinity is a pod affinity that requires every one of reqs, or
// nil. Kueue's flavor assignment honours it, and so does kube-scheduler.
func requiredAffinity(reqs []corev1.NodeSelectorRequirement) *corev1.Affinity {
	if len(reqs) == 0 {
		return nil
	}
	return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: reqs}},
		},
	}}
}
