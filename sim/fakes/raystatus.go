package fakes

import (
	"context"
	"strings"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	rayutils "github.com/ray-project/kuberay/ray-operator/controllers/ray/utils"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// rayClusterStatus is a cluster's status after observing its pods, by
// KubeRay's calculateStatus with the RayClusterStatusConditions feature on:
// worker counts and desired resources; state ready once the head and every
// desired worker run and are ready, suspended once a suspended cluster has
// no pods left; the HeadPodReady, RayClusterProvisioned,
// RayClusterSuspending and RayClusterSuspended conditions. It uses KubeRay's
// own helpers for the arithmetic. lastUpdateTime and stateTransitionTimes
// take now when something changed.
func rayClusterStatus(ctx context.Context, rc *rayv1.RayCluster, pods []corev1.Pod, now metav1.Time) rayv1.RayClusterStatus {
	st := *rc.Status.DeepCopy()
	st.ObservedGeneration = rc.Generation
	list := corev1.PodList{Items: pods}
	st.ReadyWorkerReplicas = rayutils.CalculateReadyReplicas(list)
	st.AvailableWorkerReplicas = rayutils.CalculateAvailableReplicas(list)
	st.DesiredWorkerReplicas = rayutils.CalculateDesiredReplicas(rc)
	st.MinWorkerReplicas = rayutils.CalculateMinReplicas(rc)
	st.MaxWorkerReplicas = rayutils.CalculateMaxReplicas(rc)
	res := rayutils.CalculateDesiredResources(rc)
	st.DesiredCPU = res[corev1.ResourceCPU]
	st.DesiredMemory = res[corev1.ResourceMemory]
	st.DesiredGPU = sumGPUs(res)
	st.DesiredTPU = res["google.com/tpu"]

	allRunning := rayutils.CheckAllPodsRunning(ctx, list)
	if len(pods) == int(st.DesiredWorkerReplicas)+1 && allRunning {
		st.State, st.Reason = rayv1.Ready, ""
	}

	headName := rayutils.PodName(rc.Name, rayv1.HeadNode, false)
	if head := podByName(pods, headName); head == nil {
		setRayCondition(&st, rayv1.HeadPodReady, metav1.ConditionFalse, rayv1.HeadPodNotFound, "Head Pod not found", now)
		st.Head = rayv1.HeadInfo{}
	} else {
		c := rayutils.FindHeadPodReadyCondition(head)
		setRayCondition(&st, rayv1.HeadPodReady, c.Status, c.Reason, c.Message, now)
		st.Head.PodName, st.Head.ServiceName = head.Name, rayHeadServiceName(rc.Name)
	}

	suspend := ptr.Deref(rc.Spec.Suspend, false)
	suspendState := rayClusterSuspendState(st)
	if !meta.IsStatusConditionTrue(st.Conditions, string(rayv1.RayClusterProvisioned)) && suspendState != rayv1.RayClusterSuspended {
		if allRunning {
			setRayCondition(&st, rayv1.RayClusterProvisioned, metav1.ConditionTrue, rayv1.AllPodRunningAndReadyFirstTime, "All Ray Pods are ready for the first time", now)
		} else {
			setRayCondition(&st, rayv1.RayClusterProvisioned, metav1.ConditionFalse, rayv1.RayClusterPodsProvisioning, "RayCluster Pods are being provisioned for first time", now)
		}
	}
	switch suspendState {
	case rayv1.RayClusterSuspending:
		if len(pods) == 0 {
			setRayCondition(&st, rayv1.RayClusterProvisioned, metav1.ConditionFalse, rayv1.RayClusterPodsProvisioning, "RayCluster has been suspended", now)
			setRayCondition(&st, rayv1.RayClusterSuspending, metav1.ConditionFalse, string(rayv1.RayClusterSuspending), "", now)
			setRayCondition(&st, rayv1.RayClusterSuspended, metav1.ConditionTrue, string(rayv1.RayClusterSuspended), "", now)
		}
	case rayv1.RayClusterSuspended:
		if !suspend {
			setRayCondition(&st, rayv1.RayClusterSuspended, metav1.ConditionFalse, string(rayv1.RayClusterSuspended), "", now)
		}
	default:
		setRayCondition(&st, rayv1.RayClusterSuspended, metav1.ConditionFalse, string(rayv1.RayClusterSuspended), "", now)
		s := metav1.ConditionFalse
		if suspend {
			s = metav1.ConditionTrue
		}
		setRayCondition(&st, rayv1.RayClusterSuspending, s, string(rayv1.RayClusterSuspending), "", now)
	}
	if suspend && len(pods) == 0 {
		st.State = rayv1.Suspended
	}

	if st.State != rc.Status.State && st.State != "" {
		st.StateTransitionTimes = map[rayv1.ClusterState]*metav1.Time{}
		for k, v := range rc.Status.StateTransitionTimes {
			st.StateTransitionTimes[k] = v
		}
		st.StateTransitionTimes[st.State] = &now
	}
	if !apiequality.Semantic.DeepEqual(st, rc.Status) {
		st.LastUpdateTime = &now
	}
	return st
}

// rayClusterSuspendState is KubeRay's FindRayClusterSuspendStatus.
func rayClusterSuspendState(st rayv1.RayClusterStatus) rayv1.RayClusterConditionType {
	for _, t := range []rayv1.RayClusterConditionType{rayv1.RayClusterSuspending, rayv1.RayClusterSuspended} {
		if meta.IsStatusConditionTrue(st.Conditions, string(t)) {
			return t
		}
	}
	return ""
}

func setRayCondition(st *rayv1.RayClusterStatus, t rayv1.RayClusterConditionType, s metav1.ConditionStatus, reason, msg string, now metav1.Time) {
	meta.SetStatusCondition(&st.Conditions, metav1.Condition{
		Type: string(t), Status: s, Reason: reason, Message: msg, LastTransitionTime: now,
	})
}

// sumGPUs adds up the resources whose name ends in "gpu", as KubeRay does
// for status.desiredGPU.
func sumGPUs(res corev1.ResourceList) resource.Quantity {
	var sum resource.Quantity
	for name, q := range res {
		if strings.HasSuffix(string(name), "gpu") {
			sum.Add(q)
		}
	}
	return sum
}
