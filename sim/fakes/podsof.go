package fakes

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	rayutils "github.com/ray-project/kuberay/ray-operator/controllers/ray/utils"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// PodsOf returns the pods that belong to obj: a Notebook, InferenceService,
// PyTorchJob, RayJob, RayCluster (typed or unstructured) or batch Job. The
// pods come in the order in which finishing them one by one ends the parent
// last: a PyTorchJob's workers before its master, a RayJob's workers, then
// its head, then its submitter; otherwise by name. Pods being deleted are
// left out. obj must be as read from the API server: the pods of a batch Job
// and of the fakes' own kinds are matched by its UID.
func PodsOf(ctx context.Context, c client.Client, obj client.Object) ([]corev1.Pod, error) {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil {
		return nil, fmt.Errorf("finding the pods of %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	var sel map[string]string
	owned := true // whether obj is the pods' controller
	rank := func(corev1.Pod) int { return 0 }
	switch gvk.GroupKind() {
	case notebookGVK.GroupKind():
		sel, owned = map[string]string{notebookNameLabel: obj.GetName()}, false
	case isvcGVK.GroupKind():
		sel, owned = map[string]string{isvcLabel: obj.GetName(), componentLabel: predictorComponent}, false
	case batchv1.SchemeGroupVersion.WithKind("Job").GroupKind():
		sel, owned = map[string]string{batchv1.ControllerUidLabel: string(obj.GetUID())}, false
	case kftraining.SchemeGroupVersion.WithKind(kftraining.PyTorchJobKind).GroupKind():
		sel = map[string]string{kftraining.JobNameLabel: obj.GetName()}
		rank = func(p corev1.Pod) int {
			if p.Labels[kftraining.JobRoleLabel] == "master" {
				return 1
			}
			return 0
		}
	case rayv1.SchemeGroupVersion.WithKind("RayJob").GroupKind():
		sel = rayJobSelector(obj.GetName())
		rank = rayRank
	case rayv1.SchemeGroupVersion.WithKind("RayCluster").GroupKind():
		sel = map[string]string{rayutils.RayClusterLabelKey: obj.GetName()}
		rank = rayRank
	default:
		return nil, fmt.Errorf("finding the pods of %s %s/%s: no fake operator or known controller makes them", gvk.Kind, obj.GetNamespace(), obj.GetName())
	}

	var pods []corev1.Pod
	if owned {
		pods, err = ownedPods(ctx, c, obj, sel)
	} else {
		var list corev1.PodList
		err = c.List(ctx, &list, client.InNamespace(obj.GetNamespace()), client.MatchingLabels(sel))
		pods = list.Items
	}
	if err != nil {
		return nil, fmt.Errorf("finding the pods of %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	pods = slices.DeleteFunc(pods, func(p corev1.Pod) bool { return p.DeletionTimestamp != nil })
	slices.SortFunc(pods, func(a, b corev1.Pod) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a.Name, b.Name))
	})
	return pods, nil
}

// rayRank orders Ray pods workers, head, others (the submitter).
func rayRank(p corev1.Pod) int {
	switch p.Labels[rayutils.RayNodeTypeLabelKey] {
	case string(rayv1.WorkerNode):
		return 0
	case string(rayv1.HeadNode):
		return 1
	}
	return 2
}
