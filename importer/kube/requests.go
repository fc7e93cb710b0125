package kube

import (
	corev1 "k8s.io/api/core/v1"
)

// podRequests are what one pod of the template asks the scheduler and Kueue
// for: the containers' requests (a container that gives only a limit
// requests its limit, as the API server defaults it) added up, sidecars
// (restartable init containers) included; the largest of the other init
// containers when it is larger; plus the pod's overhead.
func podRequests(spec *corev1.PodSpec) corev1.ResourceList {
	total := corev1.ResourceList{}
	sidecars := corev1.ResourceList{}
	initPeak := corev1.ResourceList{}
	for _, c := range spec.InitContainers {
		req := containerRequests(c)
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			add(sidecars, req)
			continue
		}
		// A plain init container runs beside the sidecars started before it.
		withSidecars := sidecars.DeepCopy()
		add(withSidecars, req)
		maxInto(initPeak, withSidecars)
	}
	for _, c := range spec.Containers {
		add(total, containerRequests(c))
	}
	add(total, sidecars)
	maxInto(total, initPeak)
	add(total, spec.Overhead)
	for name, q := range total {
		if q.IsZero() {
			delete(total, name)
		}
	}
	return total
}

func containerRequests(c corev1.Container) corev1.ResourceList {
	req := c.Resources.Requests.DeepCopy()
	if req == nil {
		req = corev1.ResourceList{}
	}
	for name, q := range c.Resources.Limits {
		if _, ok := req[name]; !ok {
			req[name] = q.DeepCopy()
		}
	}
	return req
}

// add adds b to a.
func add(a, b corev1.ResourceList) {
	for name, q := range b {
		sum := a[name]
		sum.Add(q)
		a[name] = sum
	}
}

// maxInto raises each of a's quantities to b's where b's is larger.
func maxInto(a, b corev1.ResourceList) {
	for name, q := range b {
		if cur, ok := a[name]; !ok || q.Cmp(cur) > 0 {
			a[name] = q.DeepCopy()
		}
	}
}

// times is count pods' worth of per-pod requests.
func times(perPod corev1.ResourceList, count int32) corev1.ResourceList {
	out := corev1.ResourceList{}
	for name, q := range perPod {
		v := q.DeepCopy()
		v.Mul(int64(count))
		out[name] = v
	}
	return out
}

// sameRequests tells whether a and b ask for the same quantities.
func sameRequests(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for name, q := range a {
		if r, ok := b[name]; !ok || q.Cmp(r) != 0 {
			return false
		}
	}
	return true
}
