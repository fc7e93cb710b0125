package fakes

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

var (
	t0 = metav1.NewTime(time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
	t1 = metav1.NewTime(t0.Add(time.Minute))
)

func testPyTorchJob(master bool, workers int32) *kftraining.PyTorchJob {
	job := &kftraining.PyTorchJob{
		ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "ns"},
		Spec: kftraining.PyTorchJobSpec{PyTorchReplicaSpecs: map[kftraining.ReplicaType]*kftraining.ReplicaSpec{
			kftraining.PyTorchJobReplicaTypeWorker: {Replicas: ptr.To(workers), RestartPolicy: kftraining.RestartPolicyOnFailure},
		}},
	}
	if master {
		job.Spec.PyTorchReplicaSpecs[kftraining.PyTorchJobReplicaTypeMaster] = &kftraining.ReplicaSpec{Replicas: ptr.To[int32](1)}
	}
	return job
}

func testPod(rt string, i int, phase corev1.PodPhase) corev1.Pod {
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "train-" + rt + "-" + string(rune('0'+i)), Labels: map[string]string{kftraining.ReplicaTypeLabel: rt}},
		Status:     corev1.PodStatus{Phase: phase},
	}
}

// condSummary keeps what the operator's conventions decide: type, status,
// reason.
type condSummary struct {
	Type   kftraining.JobConditionType
	Status corev1.ConditionStatus
	Reason string
}

func summarize(st kftraining.JobStatus) []condSummary {
	var out []condSummary
	for _, c := range st.Conditions {
		out = append(out, condSummary{c.Type, c.Status, c.Reason})
	}
	return out
}

func TestRunningPyTorchStatus(t *testing.T) {
	running, succeeded, failed, pending := corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, corev1.PodPending
	for _, tc := range []struct {
		name      string
		master    bool
		workers   int32
		pods      []corev1.Pod
		want      []condSummary
		wantTimes bool // completionTime set
	}{{
		name: "pending master: not running yet", master: true, workers: 1,
		pods: []corev1.Pod{testPod("master", 0, pending), testPod("worker", 0, running)},
	}, {
		name: "running master: Running", master: true, workers: 1,
		pods: []corev1.Pod{testPod("master", 0, running), testPod("worker", 0, pending)},
		want: []condSummary{{kftraining.JobRunning, corev1.ConditionTrue, "PyTorchJobRunning"}},
	}, {
		name: "master succeeded: Succeeded, whatever the workers", master: true, workers: 2,
		pods: []corev1.Pod{testPod("master", 0, succeeded), testPod("worker", 0, running), testPod("worker", 1, running)},
		want: []condSummary{{kftraining.JobSucceeded, corev1.ConditionTrue, "PyTorchJobSucceeded"}}, wantTimes: true,
	}, {
		name: "no master, one worker left: Running", workers: 2,
		pods: []corev1.Pod{testPod("worker", 0, succeeded), testPod("worker", 1, running)},
		want: []condSummary{{kftraining.JobRunning, corev1.ConditionTrue, "PyTorchJobRunning"}},
	}, {
		name: "no master, all workers succeeded: Succeeded", workers: 2,
		pods: []corev1.Pod{testPod("worker", 0, succeeded), testPod("worker", 1, succeeded)},
		want: []condSummary{{kftraining.JobSucceeded, corev1.ConditionTrue, "PyTorchJobSucceeded"}}, wantTimes: true,
	}, {
		name: "a worker failed: Failed, whatever its restart policy", master: true, workers: 1,
		pods: []corev1.Pod{testPod("master", 0, running), testPod("worker", 0, failed)},
		want: []condSummary{
			{kftraining.JobRunning, corev1.ConditionFalse, "PyTorchJobRunning"},
			{kftraining.JobFailed, corev1.ConditionTrue, "PyTorchJobFailed"},
		},
		wantTimes: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			st := runningPyTorchStatus(testPyTorchJob(tc.master, tc.workers), tc.pods, t0)
			if diff := cmp.Diff(tc.want, summarize(st)); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
			if got := st.CompletionTime != nil; got != tc.wantTimes {
				t.Errorf("completionTime set = %v, want %v", got, tc.wantTimes)
			}
			if st.StartTime == nil || !st.StartTime.Equal(&t0) {
				t.Errorf("startTime %v, want %v", st.StartTime, t0)
			}
		})
	}
}

func TestReplicaStatuses(t *testing.T) {
	job := testPyTorchJob(true, 3)
	gone := testPod("worker", 2, corev1.PodRunning)
	gone.DeletionTimestamp = &t0
	got := replicaStatuses(job, []corev1.Pod{
		testPod("master", 0, corev1.PodRunning),
		testPod("worker", 0, corev1.PodSucceeded), testPod("worker", 1, corev1.PodPending), gone,
	})
	want := map[kftraining.ReplicaType]*kftraining.ReplicaStatus{
		kftraining.PyTorchJobReplicaTypeMaster: {Active: 1},
		kftraining.PyTorchJobReplicaTypeWorker: {Succeeded: 1, Failed: 1},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(kftraining.ReplicaStatus{}, "LabelSelector", "Selector")); diff != "" {
		t.Errorf("replica statuses (-want +got):\n%s", diff)
	}
	if sel := got[kftraining.PyTorchJobReplicaTypeWorker].Selector; sel != "training.kubeflow.org/job-name=train,training.kubeflow.org/operator-name=pytorchjob-controller,training.kubeflow.org/replica-type=worker" {
		t.Errorf("worker selector %q", sel)
	}
}

func TestSuspendedPyTorchStatus(t *testing.T) {
	job := testPyTorchJob(true, 1)
	job.Status = runningPyTorchStatus(job, []corev1.Pod{testPod("master", 0, corev1.PodRunning), testPod("worker", 0, corev1.PodRunning)}, t0)
	st := suspendedPyTorchStatus(job, t1)
	want := []condSummary{
		{kftraining.JobRunning, corev1.ConditionFalse, "PyTorchJobSuspended"},
		{kftraining.JobSuspended, corev1.ConditionTrue, "PyTorchJobSuspended"},
	}
	if diff := cmp.Diff(want, summarize(st)); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	for rt, rs := range st.ReplicaStatuses {
		if rs.Active != 0 {
			t.Errorf("%s replicas active %d after suspension, want 0", rt, rs.Active)
		}
	}
	if job.Status.ReplicaStatuses[kftraining.PyTorchJobReplicaTypeMaster].Active != 1 {
		t.Error("suspendedPyTorchStatus changed the job's own status")
	}
}

func TestSetJobCondition(t *testing.T) {
	var st kftraining.JobStatus
	setJobCondition(&st, kftraining.JobRunning, corev1.ConditionTrue, "A", "", t0)
	setJobCondition(&st, kftraining.JobRunning, corev1.ConditionTrue, "B", "", t1)
	if c := st.Conditions[0]; !c.LastTransitionTime.Equal(&t0) || !c.LastUpdateTime.Equal(&t1) || c.Reason != "B" {
		t.Errorf("after a reason change: %+v, want transition at t0, update at t1, reason B", c)
	}
	setJobCondition(&st, kftraining.JobRestarting, corev1.ConditionTrue, "R", "", t1)
	setJobCondition(&st, kftraining.JobFailed, corev1.ConditionTrue, "F", "", t1)
	setJobCondition(&st, kftraining.JobSucceeded, corev1.ConditionTrue, "S", "", t1)
	want := []condSummary{
		{kftraining.JobRestarting, corev1.ConditionTrue, "R"},
		{kftraining.JobFailed, corev1.ConditionTrue, "F"},
	}
	if diff := cmp.Diff(want, summarize(st)); diff != "" {
		t.Errorf("Restarting replaces Running, nothing follows Failed (-want +got):\n%s", diff)
	}
}

func TestPyTorchPods(t *testing.T) {
	job := testPyTorchJob(true, 2)
	job.UID = "uid"
	job.Spec.PyTorchReplicaSpecs[kftraining.PyTorchJobReplicaTypeMaster].RestartPolicy = kftraining.RestartPolicyExitCode
	type summary struct {
		Name, Type, Index, Role string
		Restart                 corev1.RestartPolicy
	}
	var got []summary
	for _, p := range pyTorchPods(job) {
		if ref := metav1.GetControllerOf(p); ref == nil || ref.UID != "uid" || ref.Kind != "PyTorchJob" {
			t.Errorf("pod %s controller %+v, want the PyTorchJob", p.Name, ref)
		}
		if p.Spec.NodeName != "" {
			t.Errorf("pod %s has nodeName %q: the scheduler places pods", p.Name, p.Spec.NodeName)
		}
		got = append(got, summary{p.Name, p.Labels[kftraining.ReplicaTypeLabel], p.Labels[kftraining.ReplicaIndexLabel], p.Labels[kftraining.JobRoleLabel], p.Spec.RestartPolicy})
	}
	want := []summary{
		{"train-master-0", "master", "0", "master", corev1.RestartPolicyNever},
		{"train-worker-0", "worker", "0", "", corev1.RestartPolicyOnFailure},
		{"train-worker-1", "worker", "1", "", corev1.RestartPolicyOnFailure},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pods (-want +got):\n%s", diff)
	}
}
