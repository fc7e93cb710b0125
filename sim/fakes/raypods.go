package fakes

import (
	"fmt"
	"hash/fnv"
	"strconv"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	rayutils "github.com/ray-project/kuberay/ray-operator/controllers/ray/utils"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// rayClusterPods are the head and worker pods KubeRay makes for a cluster
// named cluster with spec, owned by owner (the RayCluster, or the RayJob
// standing in for the RayCluster it would create). KubeRay names worker
// pods with generateName; the fake numbers them instead, so that names are
// stable from run to run and a pod is never made twice: head
// <cluster>-head, workers <cluster>-<group>-worker-<i>.
func rayClusterPods(owner client.Object, gvk schema.GroupVersionKind, cluster string, spec *rayv1.RayClusterSpec, extra map[string]string) []*corev1.Pod {
	head := HeadPodTemplate(spec)
	out := []*corev1.Pod{newPod(owner, gvk, rayutils.PodName(cluster, rayv1.HeadNode, false), &head,
		rayPodLabels(rayv1.HeadNode, cluster, rayutils.RayNodeHeadGroupLabelValue, head.Labels, extra))}
	for _, g := range spec.WorkerGroupSpecs {
		prefix := rayutils.PodName(cluster+"-"+g.GroupName, rayv1.WorkerNode, true)
		labels := rayPodLabels(rayv1.WorkerNode, cluster, g.GroupName, g.Template.Labels, extra)
		for i := range int(rayutils.GetWorkerGroupDesiredReplicas(g)) {
			out = append(out, newPod(owner, gvk, prefix+strconv.Itoa(i), &g.Template, labels))
		}
	}
	return out
}

// HeadPodTemplate is the template of the head pod KubeRay makes for a Ray
// cluster's spec (DefaultHeadPodTemplate): the head group's template, and,
// with enableInTreeAutoscaling, the autoscaler sidecar after its
// containers. KubeRay also points the head at the autoscaler's service
// account; the fake does not, since it makes no service accounts.
func HeadPodTemplate(spec *rayv1.RayClusterSpec) corev1.PodTemplateSpec {
	head := *spec.HeadGroupSpec.Template.DeepCopy()
	if rayutils.IsAutoscalingEnabled(spec) {
		head.Spec.Containers = append(head.Spec.Containers, AutoscalerContainer(spec))
	}
	return head
}

// AutoscalerContainer is the autoscaler sidecar KubeRay adds to the head
// pod of a cluster with enableInTreeAutoscaling (BuildAutoscalerContainer,
// then mergeAutoscalerOverrides): named autoscaler, the head's image,
// 500m CPU and 512Mi requested and limited; spec.autoscalerOptions'
// resources, image and pull policy replace those. Kueue counts it from
// v0.19.
func AutoscalerContainer(spec *rayv1.RayClusterSpec) corev1.Container {
	c := corev1.Container{
		Name:            autoscalerContainerName,
		Image:           rayImage(spec),
		ImagePullPolicy: corev1.PullIfNotPresent,
		Resources: corev1.ResourceRequirements{
			Limits: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("500m"),
				corev1.ResourceMemory: resource.MustParse("512Mi"),
			},
			Requests: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("500m"),
				corev1.ResourceMemory: resource.MustParse("512Mi"),
			},
		},
	}
	if o := spec.AutoscalerOptions; o != nil {
		if o.Resources != nil {
			c.Resources = *o.Resources.DeepCopy()
		}
		if o.Image != nil {
			c.Image = *o.Image
		}
		if o.ImagePullPolicy != nil {
			c.ImagePullPolicy = *o.ImagePullPolicy
		}
	}
	return c
}

// autoscalerContainerName is the name KubeRay gives the autoscaler sidecar
// (common.AutoscalerContainerName).
const autoscalerContainerName = "autoscaler"

// rayImage is the image of the head's Ray container, which KubeRay gives
// the containers it adds (submitter, autoscaler); "" without one.
func rayImage(spec *rayv1.RayClusterSpec) string {
	cs := spec.HeadGroupSpec.Template.Spec.Containers
	if len(cs) <= rayutils.RayContainerIndex {
		return ""
	}
	return cs[rayutils.RayContainerIndex].Image
}

// rayPodLabels are KubeRay's labels for a Ray pod (labelPod): the template
// may override all but node type, group and cluster. extra are added last.
func rayPodLabels(t rayv1.RayNodeType, cluster, group string, tmpl, extra map[string]string) map[string]string {
	l := map[string]string{
		rayutils.RayNodeLabelKey:                   "yes",
		rayutils.RayClusterLabelKey:                cluster,
		rayutils.RayNodeTypeLabelKey:               string(t),
		rayutils.RayNodeGroupLabelKey:              group,
		rayutils.RayIDLabelKey:                     rayutils.CheckLabel(rayutils.GenerateIdentifier(cluster, t)),
		rayutils.KubernetesApplicationNameLabelKey: rayutils.ApplicationName,
		rayutils.KubernetesCreatedByLabelKey:       rayutils.ComponentName,
	}
	for k, v := range tmpl {
		switch k {
		case rayutils.RayNodeTypeLabelKey, rayutils.RayNodeGroupLabelKey, rayutils.RayClusterLabelKey:
		default:
			l[k] = v
		}
	}
	for k, v := range extra {
		l[k] = v
	}
	return l
}

// rayHeadServiceName is the name KubeRay gives a cluster's head Service. The
// fake makes no Services; the name goes into status.
func rayHeadServiceName(cluster string) string { return cluster + "-head-svc" }

// stableSuffix stands in for KubeRay's random five-character suffixes: the
// same input gives the same suffix, so runs are reproducible.
func stableSuffix(parts ...string) string {
	h := fnv.New32a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%05x", h.Sum32()&0xfffff)
}
