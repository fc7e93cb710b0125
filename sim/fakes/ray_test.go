//go:build integration

package fakes_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	testingraycluster "sigs.k8s.io/kueue/pkg/util/testingjobs/raycluster"
	testingrayjob "sigs.k8s.io/kueue/pkg/util/testingjobs/rayjob"

	. "github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

func TestRayJobRunsToCompletion(t *testing.T) {
	ns := gpuQueue(t, A100, "8")
	job := testingrayjob.MakeJob("ray", ns).Queue("lq").
		Image(rayv1.HeadNode, "rayproject/ray").Image(rayv1.WorkerNode, "rayproject/ray").
		RequestAndLimit(rayv1.HeadNode, gpu, "1").
		RequestAndLimit(rayv1.WorkerNode, gpu, "1").
		Obj()
	Create(t, cp.Client, job)

	// The head and the worker run on the flavor's nodes; the submitter,
	// whose default template Kueue cannot inject into, runs anywhere.
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := get(ctx, job); err != nil {
			return err
		}
		if job.Status.JobDeploymentStatus != rayv1.JobDeploymentStatusRunning || job.Status.JobStatus != rayv1.JobStatusRunning {
			return fmt.Errorf("RayJob is %q/%q, want Running/RUNNING", job.Status.JobDeploymentStatus, job.Status.JobStatus)
		}
		if job.Status.RayClusterStatus.State != rayv1.Ready {
			return fmt.Errorf("RayJob's cluster is %q, want ready", job.Status.RayClusterStatus.State)
		}
		return workloadCondition(ctx, ns, job.Name, kueue.WorkloadAdmitted)
	})
	var pods []corev1.Pod
	Eventually(t, 30*time.Second, func(ctx context.Context) (err error) {
		if pods, err = running(ctx, job, 3); err != nil {
			return err
		}
		return onProduct(ctx, pods[:2], A100)
	})
	cluster := job.Status.RayClusterName
	for i, want := range []string{cluster + "-workers-group-0-worker-0", cluster + "-head", "ray-submitter"} {
		if pods[i].Name != want {
			t.Errorf("pod %d is %s, want %s", i, pods[i].Name, want)
		}
	}

	finish(t, pods, corev1.PodSucceeded)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := get(ctx, job); err != nil {
			return err
		}
		if job.Status.JobDeploymentStatus != rayv1.JobDeploymentStatusComplete || job.Status.JobStatus != rayv1.JobStatusSucceeded {
			return fmt.Errorf("RayJob is %q/%q, want Complete/SUCCEEDED", job.Status.JobDeploymentStatus, job.Status.JobStatus)
		}
		if job.Status.EndTime == nil {
			return fmt.Errorf("RayJob has no endTime")
		}
		return workloadCondition(ctx, ns, job.Name, kueue.WorkloadFinished)
	})
}

func TestRayClusterRunsUntilSuspendedOrDeleted(t *testing.T) {
	ns := gpuQueue(t, L4, "8")
	rc := testingraycluster.MakeCluster("rc", ns).Queue("lq").
		Image(rayv1.HeadNode, "rayproject/ray", nil).Image(rayv1.WorkerNode, "rayproject/ray", nil).
		RequestAndLimit(rayv1.HeadNode, gpu, "1").
		RequestAndLimit(rayv1.WorkerNode, gpu, "2").
		Obj()
	Create(t, cp.Client, rc)
	ready := func(ctx context.Context) error {
		if _, err := runningOn(ctx, rc, 2, L4); err != nil {
			return err
		}
		if err := get(ctx, rc); err != nil {
			return err
		}
		if rc.Status.State != rayv1.Ready || rc.Status.AvailableWorkerReplicas != 1 || rc.Status.Head.PodName != "rc-head" {
			return fmt.Errorf("RayCluster state %q, %d available workers, head %q; want ready, 1, rc-head",
				rc.Status.State, rc.Status.AvailableWorkerReplicas, rc.Status.Head.PodName)
		}
		return workloadCondition(ctx, ns, rc.Name, kueue.WorkloadAdmitted)
	}
	Eventually(t, 30*time.Second, ready)

	// Deactivating the Workload makes Kueue evict and suspend the cluster.
	setActive(t, ns, rc.Name, false)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if _, err := runningOn(ctx, rc, 0, L4); err != nil {
			return err
		}
		if err := get(ctx, rc); err != nil {
			return err
		}
		if !ptr.Deref(rc.Spec.Suspend, false) || rc.Status.State != rayv1.Suspended {
			return fmt.Errorf("RayCluster suspend=%v state %q, want suspended", ptr.Deref(rc.Spec.Suspend, false), rc.Status.State)
		}
		return nil
	})
	setActive(t, ns, rc.Name, true)
	Eventually(t, 30*time.Second, ready)

	if err := cp.Client.Delete(context.Background(), rc); err != nil {
		t.Fatal(err)
	}
	Eventually(t, 30*time.Second, func(ctx context.Context) error { return noWorkloads(ctx, ns, rc.Name) })
}

func TestRayJobIsSuspendedAndRunsAgain(t *testing.T) {
	ns := gpuQueue(t, A100, "8")
	job := testingrayjob.MakeJob("again", ns).Queue("lq").
		Image(rayv1.HeadNode, "rayproject/ray").Image(rayv1.WorkerNode, "rayproject/ray").
		RequestAndLimit(rayv1.WorkerNode, gpu, "1").
		Obj()
	Create(t, cp.Client, job)
	runs := func(ctx context.Context) error {
		if err := get(ctx, job); err != nil {
			return err
		}
		if job.Status.JobDeploymentStatus != rayv1.JobDeploymentStatusRunning {
			return fmt.Errorf("RayJob is %q, want Running", job.Status.JobDeploymentStatus)
		}
		_, err := running(ctx, job, 3)
		return err
	}
	Eventually(t, 30*time.Second, runs)

	setActive(t, ns, job.Name, false)
	Eventually(t, 30*time.Second, func(ctx context.Context) error {
		if err := get(ctx, job); err != nil {
			return err
		}
		if job.Status.JobDeploymentStatus != rayv1.JobDeploymentStatusSuspended || job.Status.RayClusterName != "" {
			return fmt.Errorf("RayJob is %q with cluster %q, want Suspended without one", job.Status.JobDeploymentStatus, job.Status.RayClusterName)
		}
		_, err := running(ctx, job, 0)
		return err
	})
	setActive(t, ns, job.Name, true)
	Eventually(t, 30*time.Second, runs)
}
