//go:build integration

package fakes_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	corev1 "k8s.io/api/core/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"
	testingpytorch "sigs.k8s.io/kueue/pkg/util/testingjobs/pytorchjob"

	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

// pyTorchJob is a master and one worker, each asking for gpus GPUs.
func pyTorchJob(name, ns, gpus string) *testingpytorch.PyTorchJobWrapper {
	return testingpytorch.MakePyTorchJob(name, ns).Queue("lq").
		PyTorchReplicaSpecsDefault().
		RequestAndLimit(kftraining.PyTorchJobReplicaTypeMaster, gpu, gpus).
		RequestAndLimit(kftraining.PyTorchJobReplicaTypeWorker, gpu, gpus)
}

// jobCondition checks that the PyTorchJob's condition t has status s.
func jobCondition(ctx context.Context, job *kftraining.PyTorchJob, t kftraining.JobConditionType, s corev1.ConditionStatus) error {
	if err := get(ctx, job); err != nil {
		return err
	}
	for _, c := range job.Status.Conditions {
		if c.Type == t {
			if c.Status != s {
				return fmt.Errorf("PyTorchJob %s condition %s is %s, want %s", job.Name, t, c.Status, s)
			}
			return nil
		}
	}
	return fmt.Errorf("PyTorchJob %s has no %s condition: %+v", job.Name, t, job.Status.Conditions)
}

func TestPyTorchJobRunsAndSucceeds(t *testing.T) {
	ns := gpuQueue(t, A100, "8")
	job := pyTorchJob("train", ns, "2").Obj()
	Create(t, cp.Client, job)

	var pods []corev1.Pod
	Eventually(t, 30*time.Second, func(ctx context.Context) (err error) {
		pods, err = runningOn(ctx, job, 2, A100)
		return err
	})
	if pods[0].Name != "train-worker-0" || pods[1].Name != "train-master-0" {
		t.Errorf("pods %s, %s; want train-worker-0, train-master-0 (master last)", pods[0].Name, pods[1].Name)
	}
	master := pods[1]
	for k, want := range map[string]string{
		kftraining.JobNameLabel:      "train",
		kftraining.ReplicaTypeLabel:  "master",
		kftraining.ReplicaIndexLabel: "0",
		kftraining.JobRoleLabel:      "master",
		kftraining.OperatorNameLabel: "pytorchjob-controller",
	} {
		if got := master.Labels[k]; got != want {
			t.Errorf("master label %s=%q, want %q", k, got, want)
		}
	}
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := jobCondition(ctx, job, kftraining.JobCreated, corev1.ConditionTrue); err != nil {
			return err
		}
		if err := jobCondition(ctx, job, kftraining.JobRunning, corev1.ConditionTrue); err != nil {
			return err
		}
		return workloadCondition(ctx, ns, job.Name, kueue.WorkloadAdmitted)
	})

	finish(t, pods, corev1.PodSucceeded)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := jobCondition(ctx, job, kftraining.JobSucceeded, corev1.ConditionTrue); err != nil {
			return err
		}
		if err := jobCondition(ctx, job, kftraining.JobRunning, corev1.ConditionFalse); err != nil {
			return err
		}
		return workloadCondition(ctx, ns, job.Name, kueue.WorkloadFinished)
	})
	if rs := job.Status.ReplicaStatuses[kftraining.PyTorchJobReplicaTypeWorker]; rs == nil || rs.Succeeded != 1 || rs.Active != 0 {
		t.Errorf("worker replica status %+v, want 1 succeeded, 0 active", rs)
	}
	if job.Status.CompletionTime == nil {
		t.Error("no completionTime on the succeeded job")
	}
}

func TestPyTorchJobFailsWhenAReplicaFails(t *testing.T) {
	ns := gpuQueue(t, A100, "8")
	job := pyTorchJob("crash", ns, "1").Obj()
	Create(t, cp.Client, job)
	var pods []corev1.Pod
	Eventually(t, 30*time.Second, func(ctx context.Context) (err error) {
		pods, err = runningOn(ctx, job, 2, A100)
		return err
	})
	finish(t, pods[:1], corev1.PodFailed) // the worker
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := jobCondition(ctx, job, kftraining.JobFailed, corev1.ConditionTrue); err != nil {
			return err
		}
		return workloadCondition(ctx, ns, job.Name, kueue.WorkloadFinished)
	})
}

func TestPyTorchJobIsPreemptedAndRunsAgain(t *testing.T) {
	ns := gpuQueue(t, A100, "4")
	low, high := utiltesting.MakeWorkloadPriorityClass("low-"+ns).PriorityValue(100).Obj(),
		utiltesting.MakeWorkloadPriorityClass("high-"+ns).PriorityValue(1000).Obj()
	Create(t, cp.Client, low, high)
	t.Cleanup(func() {
		_ = cp.Client.Delete(context.Background(), low)
		_ = cp.Client.Delete(context.Background(), high)
	})

	victim := pyTorchJob("victim", ns, "2").WorkloadPriorityClass(low.Name).Obj()
	Create(t, cp.Client, victim)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if _, err := runningOn(ctx, victim, 2, A100); err != nil {
			return err
		}
		return jobCondition(ctx, victim, kftraining.JobRunning, corev1.ConditionTrue)
	})

	urgent := pyTorchJob("urgent", ns, "2").WorkloadPriorityClass(high.Name).Obj()
	Create(t, cp.Client, urgent)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := jobCondition(ctx, victim, kftraining.JobSuspended, corev1.ConditionTrue); err != nil {
			return err
		}
		if err := jobCondition(ctx, victim, kftraining.JobRunning, corev1.ConditionFalse); err != nil {
			return err
		}
		if rs := victim.Status.ReplicaStatuses[kftraining.PyTorchJobReplicaTypeMaster]; rs == nil || rs.Active != 0 {
			return fmt.Errorf("victim master replica status %+v, want 0 active", rs)
		}
		if _, err := runningOn(ctx, victim, 0, A100); err != nil {
			return err
		}
		return workloadCondition(ctx, ns, victim.Name, kueue.WorkloadEvicted)
	})
	var pods []corev1.Pod
	Eventually(t, 30*time.Second, func(ctx context.Context) (err error) {
		pods, err = runningOn(ctx, urgent, 2, A100)
		return err
	})

	finish(t, pods, corev1.PodSucceeded)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if _, err := runningOn(ctx, victim, 2, A100); err != nil {
			return err
		}
		if err := jobCondition(ctx, victim, kftraining.JobSuspended, corev1.ConditionFalse); err != nil {
			return err
		}
		return jobCondition(ctx, victim, kftraining.JobRunning, corev1.ConditionTrue)
	})
}
