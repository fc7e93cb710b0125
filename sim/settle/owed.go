package settle

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// What kube-scheduler, the kubelet and kube-controller-manager still owe
// one object, judged from the object alone (and, for a Job, its pods): the
// busy index keeps these per object.

// podBusy says what a pod waits for, or returns the zero Busy.
func podBusy(p *corev1.Pod) Busy {
	name := p.Namespace + "/" + p.Name
	switch {
	case p.DeletionTimestamp != nil:
		return Busy{Kind: PodWaits, Object: name, Detail: "is terminating"}
	case p.Spec.NodeName == "" && len(p.Spec.SchedulingGates) == 0 && !unschedulable(p):
		return Busy{Kind: PodWaits, Object: name, Detail: "waits for kube-scheduler"}
	case p.Spec.NodeName != "" && p.Status.Phase == corev1.PodPending:
		return Busy{Kind: PodWaits, Object: name, Detail: "waits for the kubelet"}
	}
	return Busy{}
}

// unschedulable tells whether kube-scheduler tried p and found no node.
// kube-apiserver marks a pod created with scheduling gates PodScheduled
// False with reason SchedulingGated, and leaves that once the gates are
// gone, until kube-scheduler writes its own: such a pod waits for
// kube-scheduler.
func unschedulable(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason != corev1.PodReasonSchedulingGated {
			return true
		}
	}
	return false
}

// jobPod is what a Job's pod counts as in the Job's status.
type jobPod uint8

const (
	podActive jobPod = iota // not ended, not ready (or terminating)
	podReady                // not ended, not terminating, Ready
	podEnded                // succeeded or failed
)

func jobPodOf(p *corev1.Pod) jobPod {
	switch {
	case p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed:
		return podEnded
	case p.DeletionTimestamp == nil && podReadyCondition(p):
		return podReady
	}
	return podActive
}

func podReadyCondition(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// jobPods counts a Job's pods: active (not ended, ready ones among them),
// ready, and terminal (ended).
type jobPods struct{ active, ready, terminal int }

// jobBusy tells whether kube-controller-manager still owes a Job work:
// creating or deleting its pods, or counting the ones that ended or became
// ready. Kueue's waitForPodsReady reads the ready count (status.ready,
// which kube-controller-manager writes up to a second after the pods
// change): an instant that ends before it is written leaves the Workload
// without PodsReady, and a PodsReady timeout at a later instant would then
// depend on machine speed.
func jobBusy(j *batchv1.Job, n jobPods) Busy {
	key := j.Namespace + "/" + j.Name
	owes := func(what string) Busy {
		return Busy{Kind: JobWaits, Object: key, Detail: "kube-controller-manager " + what}
	}
	if finished(j) {
		return Busy{}
	}
	if n.terminal > int(j.Status.Succeeded+j.Status.Failed) {
		return owes("has not counted its ended pods")
	}
	if j.Spec.Completions != nil && j.Status.Succeeded >= *j.Spec.Completions {
		return owes("has not marked it complete")
	}
	if backoff := ptr.Deref(j.Spec.BackoffLimit, 6); j.Status.Failed > backoff {
		return owes("has not marked it failed")
	}
	suspended := j.Spec.Suspend != nil && *j.Spec.Suspend
	if !suspended && n.ready > int(ptr.Deref(j.Status.Ready, 0)) {
		return owes("has not counted its ready pods")
	}
	if suspended && n.active > 0 {
		return owes("is deleting the pods of the suspended job")
	}
	if !suspended && j.Spec.Parallelism != nil {
		want := int(*j.Spec.Parallelism)
		if j.Spec.Completions != nil {
			if left := int(*j.Spec.Completions) - int(j.Status.Succeeded); left < want {
				want = left
			}
		}
		if n.active < want {
			return owes("has not created its pods")
		}
	}
	return Busy{}
}

func finished(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// appsBusy keys a StatefulSet, ReplicaSet or Deployment and says whether
// its controller is still reconciling it.
func appsBusy(obj any) (key string, why Busy) {
	replicasBusy := func(kind BusyKind, ns, name string, spec *int32, gen, observed int64, have int32) (string, Busy) {
		b := Busy{Kind: kind, Object: ns + "/" + name}
		want := int32(1)
		if spec != nil {
			want = *spec
		}
		if observed < gen || have != want {
			return appsWord(kind) + " " + b.Object, b
		}
		return appsWord(kind) + " " + b.Object, Busy{}
	}
	switch o := obj.(type) {
	case *appsv1.StatefulSet:
		return replicasBusy(StatefulSetWaits, o.Namespace, o.Name, o.Spec.Replicas, o.Generation, o.Status.ObservedGeneration, o.Status.Replicas)
	case *appsv1.ReplicaSet:
		return replicasBusy(ReplicaSetWaits, o.Namespace, o.Name, o.Spec.Replicas, o.Generation, o.Status.ObservedGeneration, o.Status.Replicas)
	case *appsv1.Deployment:
		b := Busy{Kind: DeploymentWaits, Object: o.Namespace + "/" + o.Name}
		key := "deployment " + b.Object
		if o.Status.ObservedGeneration < o.Generation {
			return key, b
		}
		return key, Busy{}
	}
	return "", Busy{}
}
