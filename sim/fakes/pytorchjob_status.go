package fakes

import (
	"fmt"
	"slices"
	"strings"

	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// The training operator's condition reasons are the kind followed by one of
// these (pkg/util/status.go).
const (
	reasonCreated   = "Created"
	reasonRunning   = "Running"
	reasonSucceeded = "Succeeded"
	reasonFailed    = "Failed"
	reasonSuspended = "Suspended"
	reasonResumed   = "Resumed"
)

// pyTorchOperatorName is the value of training.kubeflow.org/operator-name on
// the pods of a PyTorchJob.
const pyTorchOperatorName = "pytorchjob-controller"

// replicaTypes returns the job's replica types in a fixed order: Master,
// Worker, then any other by name. The operator walks a map; the fake walks
// this order so that its results do not depend on map iteration.
func replicaTypes(specs map[kftraining.ReplicaType]*kftraining.ReplicaSpec) []kftraining.ReplicaType {
	rank := func(rt kftraining.ReplicaType) int {
		switch rt {
		case kftraining.PyTorchJobReplicaTypeMaster:
			return 0
		case kftraining.PyTorchJobReplicaTypeWorker:
			return 1
		}
		return 2
	}
	out := make([]kftraining.ReplicaType, 0, len(specs))
	for rt := range specs {
		out = append(out, rt)
	}
	slices.SortFunc(out, func(a, b kftraining.ReplicaType) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(string(a), string(b))
	})
	return out
}

// pyTorchPodLabels are the labels the operator puts on a replica's pod
// (GenLabels plus replica type and index; job-role=master on the master).
func pyTorchPodLabels(job string, rt kftraining.ReplicaType, index int) map[string]string {
	l := pyTorchSelector(job, rt)
	l[kftraining.ReplicaIndexLabel] = fmt.Sprint(index)
	if rt == kftraining.PyTorchJobReplicaTypeMaster {
		l[kftraining.JobRoleLabel] = "master"
	}
	return l
}

// pyTorchSelector selects one replica type's pods (GenLabelSelector).
func pyTorchSelector(job string, rt kftraining.ReplicaType) map[string]string {
	return map[string]string{
		kftraining.OperatorNameLabel: pyTorchOperatorName,
		kftraining.JobNameLabel:      job,
		kftraining.ReplicaTypeLabel:  strings.ToLower(string(rt)),
	}
}

// pyTorchPodName is the operator's GenGeneralName.
func pyTorchPodName(job string, rt kftraining.ReplicaType, index int) string {
	return strings.ReplaceAll(fmt.Sprintf("%s-%s-%d", job, strings.ToLower(string(rt)), index), "/", "-")
}

// replicaStatuses counts pods per replica type as the operator does
// (UpdateJobReplicaStatuses): Running pods are active (or failed when being
// deleted), Succeeded and Failed pods count as such, Pending pods not at all.
func replicaStatuses(job *kftraining.PyTorchJob, pods []corev1.Pod) map[kftraining.ReplicaType]*kftraining.ReplicaStatus {
	out := make(map[kftraining.ReplicaType]*kftraining.ReplicaStatus, len(job.Spec.PyTorchReplicaSpecs))
	for rt := range job.Spec.PyTorchReplicaSpecs {
		sel := pyTorchSelector(job.Name, rt)
		rs := &kftraining.ReplicaStatus{
			LabelSelector: &metav1.LabelSelector{MatchLabels: sel},
			Selector:      metav1.FormatLabelSelector(&metav1.LabelSelector{MatchLabels: sel}),
		}
		for i := range pods {
			p := &pods[i]
			if p.Labels[kftraining.ReplicaTypeLabel] != strings.ToLower(string(rt)) {
				continue
			}
			switch p.Status.Phase {
			case corev1.PodRunning:
				if p.DeletionTimestamp != nil {
					rs.Failed++
				} else {
					rs.Active++
				}
			case corev1.PodSucceeded:
				rs.Succeeded++
			case corev1.PodFailed:
				rs.Failed++
			}
		}
		out[rt] = rs
	}
	return out
}

// runningPyTorchStatus is the status of an unsuspended, unfinished job
// after observing its pods, by the operator's rules (UpdateJobStatus):
//   - with a Master, the job is Running while the master runs and Succeeded
//     once the master succeeded;
//   - without one, Succeeded once every Worker succeeded, Running while any
//     runs;
//   - Failed once a replica failed and the replica type cannot complete.
//
// The operator fails the job only for restartPolicy Never and otherwise
// marks it Restarting while the kubelet restarts the container. The fake
// kubelet reports a pod Failed only when the scenario says the workload
// fails, and restarts nothing, so here a failed replica fails the job
// whatever its restart policy.
func runningPyTorchStatus(job *kftraining.PyTorchJob, pods []corev1.Pod, now metav1.Time) kftraining.JobStatus {
	st := *job.Status.DeepCopy()
	st.ReplicaStatuses = replicaStatuses(job, pods)
	if st.StartTime == nil {
		st.StartTime = &now
	}
	kind := kftraining.PyTorchJobKind
	specs := job.Spec.PyTorchReplicaSpecs
	_, hasMaster := specs[kftraining.PyTorchJobReplicaTypeMaster]
	for _, rt := range replicaTypes(specs) {
		rs, want := st.ReplicaStatuses[rt], ptr.Deref(specs[rt].Replicas, 1)
		expected := want - rs.Succeeded
		if (hasMaster && rt == kftraining.PyTorchJobReplicaTypeMaster) || (!hasMaster && rt == kftraining.PyTorchJobReplicaTypeWorker) {
			if rs.Active > 0 {
				setJobCondition(&st, kftraining.JobRunning, corev1.ConditionTrue, kind+reasonRunning,
					fmt.Sprintf("PyTorchJob %s is running.", job.Name), now)
			}
			if expected == 0 {
				if st.CompletionTime == nil {
					st.CompletionTime = &now
				}
				setJobCondition(&st, kftraining.JobSucceeded, corev1.ConditionTrue, kind+reasonSucceeded,
					fmt.Sprintf("PyTorchJob %s is successfully completed.", job.Name), now)
				return st
			}
		}
		if rs.Failed > 0 && want > rs.Succeeded+rs.Active {
			if st.CompletionTime == nil {
				st.CompletionTime = &now
			}
			setJobCondition(&st, kftraining.JobFailed, corev1.ConditionTrue, kind+reasonFailed,
				fmt.Sprintf("PyTorchJob %s is failed because %d %s replica(s) failed.", job.Name, rs.Failed, rt), now)
			return st
		}
	}
	return st
}

// suspendedPyTorchStatus is the status of a suspended job whose pods are
// being deleted (ReconcileJobs, suspend branch).
func suspendedPyTorchStatus(job *kftraining.PyTorchJob, now metav1.Time) kftraining.JobStatus {
	st := *job.Status.DeepCopy()
	for _, rs := range st.ReplicaStatuses {
		rs.Active = 0
	}
	kind, msg := kftraining.PyTorchJobKind, fmt.Sprintf("PyTorchJob %s is suspended.", job.Name)
	if hasJobCondition(st, kftraining.JobRunning) {
		setJobCondition(&st, kftraining.JobRunning, corev1.ConditionFalse, kind+reasonSuspended, msg, now)
	}
	if !hasJobCondition(st, kftraining.JobSuspended) {
		setJobCondition(&st, kftraining.JobSuspended, corev1.ConditionTrue, kind+reasonSuspended, msg, now)
	}
	return st
}

// finishedPyTorchStatus is the status of a job that has finished: a
// succeeded job's active replicas count as succeeded.
func finishedPyTorchStatus(job *kftraining.PyTorchJob) kftraining.JobStatus {
	st := *job.Status.DeepCopy()
	if hasJobCondition(st, kftraining.JobSucceeded) {
		for _, rs := range st.ReplicaStatuses {
			rs.Succeeded += rs.Active
			rs.Active = 0
		}
	}
	return st
}

// hasJobCondition reports whether the condition is true.
func hasJobCondition(st kftraining.JobStatus, t kftraining.JobConditionType) bool {
	for _, c := range st.Conditions {
		if c.Type == t {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func pyTorchFinished(st kftraining.JobStatus) bool {
	return hasJobCondition(st, kftraining.JobSucceeded) || hasJobCondition(st, kftraining.JobFailed)
}

// setJobCondition follows the operator's UpdateJobConditions: nothing
// changes once the job failed or when the condition already has this status
// and reason; the transition time stays when only the reason changes;
// Running and Restarting replace each other; Succeeded and Failed turn
// Running false.
func setJobCondition(st *kftraining.JobStatus, t kftraining.JobConditionType, status corev1.ConditionStatus, reason, msg string, now metav1.Time) {
	if hasJobCondition(*st, kftraining.JobFailed) {
		return
	}
	c := kftraining.JobCondition{Type: t, Status: status, Reason: reason, Message: msg, LastUpdateTime: now, LastTransitionTime: now}
	for _, old := range st.Conditions {
		if old.Type != t {
			continue
		}
		if old.Status == status && old.Reason == reason {
			return
		}
		if old.Status == status {
			c.LastTransitionTime = old.LastTransitionTime
		}
	}
	kept := make([]kftraining.JobCondition, 0, len(st.Conditions)+1)
	for _, old := range st.Conditions {
		switch {
		case old.Type == t,
			t == kftraining.JobRestarting && old.Type == kftraining.JobRunning,
			t == kftraining.JobRunning && old.Type == kftraining.JobRestarting:
			continue
		case (t == kftraining.JobFailed || t == kftraining.JobSucceeded) && old.Type == kftraining.JobRunning:
			old.Status = corev1.ConditionFalse
		}
		kept = append(kept, old)
	}
	st.Conditions = append(kept, c)
}
