package fakes

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ownedPods lists the pods in owner's namespace that match sel and whose
// controller is owner.
func ownedPods(ctx context.Context, c client.Reader, owner client.Object, sel map[string]string) ([]corev1.Pod, error) {
	var list corev1.PodList
	if err := c.List(ctx, &list, client.InNamespace(owner.GetNamespace()), client.MatchingLabels(sel)); err != nil {
		return nil, fmt.Errorf("listing pods of %s/%s: %w", owner.GetNamespace(), owner.GetName(), err)
	}
	out := list.Items[:0]
	for _, p := range list.Items {
		if ref := metav1.GetControllerOf(&p); ref != nil && ref.UID == owner.GetUID() {
			out = append(out, p)
		}
	}
	return out, nil
}

// newPod makes a pod from tmpl as a controller would: the template's labels
// and annotations plus labels, the template's spec, and a controller
// reference to owner. It leaves nodeName unset: the scheduler places it.
func newPod(owner client.Object, gvk schema.GroupVersionKind, name string, tmpl *corev1.PodTemplateSpec, labels map[string]string) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   owner.GetNamespace(),
			Labels:      map[string]string{},
			Annotations: map[string]string{},
			OwnerReferences: []metav1.OwnerReference{
				*metav1.NewControllerRef(owner, gvk),
			},
		},
		Spec: *tmpl.Spec.DeepCopy(),
	}
	for k, v := range tmpl.Labels {
		p.Labels[k] = v
	}
	for k, v := range labels {
		p.Labels[k] = v
	}
	for k, v := range tmpl.Annotations {
		p.Annotations[k] = v
	}
	return p
}

// createMissing creates the pods of want whose names no pod in have holds.
// A name held by a terminating pod is left for a later reconcile, which the
// pod's deletion triggers.
func createMissing(ctx context.Context, c client.Client, want []*corev1.Pod, have []corev1.Pod) error {
	held := make(map[string]bool, len(have))
	for _, p := range have {
		held[p.Name] = true
	}
	for _, p := range want {
		if held[p.Name] {
			continue
		}
		if err := c.Create(ctx, p); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating pod %s/%s: %w", p.Namespace, p.Name, err)
		}
	}
	return nil
}

// deletePods deletes the pods for which del returns true and that are not
// already terminating. It returns how many of pods are still there, counting
// terminating ones.
func deletePods(ctx context.Context, c client.Client, pods []corev1.Pod, del func(*corev1.Pod) bool) (left int, err error) {
	for i := range pods {
		p := &pods[i]
		if p.DeletionTimestamp == nil && del(p) {
			err := c.Delete(ctx, p, client.Preconditions{UID: &p.UID}, client.PropagationPolicy(metav1.DeletePropagationBackground))
			if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
				continue
			}
			if err != nil {
				return 0, fmt.Errorf("deleting pod %s/%s: %w", p.Namespace, p.Name, err)
			}
		}
		left++
	}
	return left, nil
}

func all(*corev1.Pod) bool { return true }

// active reports whether a pod is neither finished nor being deleted.
func active(p *corev1.Pod) bool {
	return p.DeletionTimestamp == nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed
}

// terminating reports whether any of pods is being deleted.
func terminating(pods []corev1.Pod) bool {
	for i := range pods {
		if pods[i].DeletionTimestamp != nil {
			return true
		}
	}
	return false
}

// ready reports whether a pod is Running with its Ready condition true.
func ready(p *corev1.Pod) bool {
	if p.Status.Phase != corev1.PodRunning {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// podByName returns the pod of pods named name, or nil.
func podByName(pods []corev1.Pod, name string) *corev1.Pod {
	for i := range pods {
		if pods[i].Name == name {
			return &pods[i]
		}
	}
	return nil
}
