package engine

import (
	"fmt"

	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/scenarios"
)

// fakeImage names the image of every simulated container; nothing pulls it.
const fakeImage = "registry.invalid/kueue-sim/workload:latest"

// WorkloadObject builds the object an arrival submits: a Job, PyTorchJob,
// RayJob, RayCluster, Notebook, InferenceService or raw Workload, labelled so
// that its Workload and pods map back to the arrival. priorities maps
// WorkloadPriorityClass names to values (for raw Workloads).
func WorkloadObject(a Arrival, priorities map[string]int32) (client.Object, error) {
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
	replicas := *st.Replicas
	tmpl := func(container string) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{WorkloadLabel: a.Name, StreamLabel: st.Name}},
			Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{
					Name: container, Image: fakeImage, Resources: podResources(st.Requests),
				}},
				Affinity: requiredAffinity(st.RequiredNodeAffinity),
			},
		}
	}
	switch st.Kind {
	case scenarios.KindJob:
		return &batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{
			Parallelism: ptr.To(replicas), Completions: ptr.To(replicas),
			Suspend: ptr.To(true), BackoffLimit: ptr.To[int32](0),
			Template: tmpl("main"),
		}}, nil
	case scenarios.KindPyTorchJob:
		specs := map[kftraining.ReplicaType]*kftraining.ReplicaSpec{
			kftraining.PyTorchJobReplicaTypeMaster: {Replicas: ptr.To[int32](1), Template: tmpl(kftraining.PyTorchJobDefaultContainerName), RestartPolicy: kftraining.RestartPolicyNever},
		}
		if replicas > 1 {
			specs[kftraining.PyTorchJobReplicaTypeWorker] = &kftraining.ReplicaSpec{
				Replicas: ptr.To(replicas - 1), Template: tmpl(kftraining.PyTorchJobDefaultContainerName), RestartPolicy: kftraining.RestartPolicyNever,
			}
		}
		return &kftraining.PyTorchJob{ObjectMeta: meta, Spec: kftraining.PyTorchJobSpec{
			RunPolicy:           kftraining.RunPolicy{Suspend: ptr.To(true)},
			PyTorchReplicaSpecs: specs,
		}}, nil
	case scenarios.KindRayJob:
		return &rayv1.RayJob{ObjectMeta: meta, Spec: rayv1.RayJobSpec{
			Entrypoint:               "python train.py",
			ShutdownAfterJobFinishes: true,
			Suspend:                  true,
			RayClusterSpec:           rayCluster(replicas, tmpl),
		}}, nil
	case scenarios.KindRayCluster:
		spec := rayCluster(replicas, tmpl)
		spec.Suspend = ptr.To(true)
		return &rayv1.RayCluster{ObjectMeta: meta, Spec: *spec}, nil
	case scenarios.KindNotebook:
		t := tmpl(a.Name)
		t.Spec.RestartPolicy = corev1.RestartPolicyAlways
		return unstructuredObject("kubeflow.org/v1", "Notebook", meta, map[string]any{"template": t})
	case scenarios.KindInferenceService:
		res := podResources(st.Requests)
		return unstructuredObject("serving.kserve.io/v1beta1", "InferenceService", meta, map[string]any{
			"predictor": map[string]any{
				"minReplicas": replicas,
				"model": map[string]any{
					"modelFormat": map[string]any{"name": "sklearn"},
					"resources":   res,
				},
			},
		})
	case scenarios.KindWorkload:
		wl := &kueue.Workload{ObjectMeta: meta, Spec: kueue.WorkloadSpec{
			QueueName: kueue.LocalQueueName(st.Queue),
			PodSets:   []kueue.PodSet{{Name: kueue.DefaultPodSetName, Count: replicas, Template: tmpl("main")}},
		}}
		if st.PriorityClass != "" {
			wl.Spec.PriorityClassRef = kueue.NewWorkloadPriorityClassRef(st.PriorityClass)
			wl.Spec.Priority = ptr.To(priorities[st.PriorityClass])
		}
		return wl, nil
	}
	return nil, fmt.Errorf("building workload %s: unknown kind %q", a.Name, st.Kind)
}

// PodCount is the number of pods a running workload of the stream has: its
// replicas, and for a RayJob the submitter pod KubeRay adds (K8sJobMode).
func PodCount(st *scenarios.Stream) int {
	if st.Kind == scenarios.KindRayJob {
		return int(*st.Replicas) + 1
	}
	return int(*st.Replicas)
}

func rayCluster(replicas int32, tmpl func(string) corev1.PodTemplateSpec) *rayv1.RayClusterSpec {
	head := tmpl("ray-head")
	head.Spec.RestartPolicy = corev1.RestartPolicyAlways
	spec := &rayv1.RayClusterSpec{
		HeadGroupSpec: rayv1.HeadGroupSpec{RayStartParams: map[string]string{}, Template: head},
	}
	if replicas > 1 {
		w := tmpl("ray-worker")
		w.Spec.RestartPolicy = corev1.RestartPolicyAlways
		spec.WorkerGroupSpecs = []rayv1.WorkerGroupSpec{{
			GroupName: "workers", Replicas: ptr.To(replicas - 1),
			MinReplicas: ptr.To(replicas - 1), MaxReplicas: ptr.To(replicas - 1),
			RayStartParams: map[string]string{}, Template: w,
		}}
	}
	return spec
}

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
