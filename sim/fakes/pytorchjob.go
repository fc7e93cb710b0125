package fakes

import (
	"context"
	"fmt"

	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
)

// pyTorchJobReconciler is the fake training operator for PyTorchJobs. Like
// the operator it creates one pod per replica, named <job>-<type>-<index>,
// with the operator's labels and a controller reference; unlike it, it
// makes no Services and sets no MASTER_ADDR or WORLD_SIZE: nothing runs.
type pyTorchJobReconciler struct {
	client client.Client
	clock  clock.PassiveClock
}

func (r *pyTorchJobReconciler) setup(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("kueue-sim-fake-pytorchjob").
		For(&kftraining.PyTorchJob{}).
		Owns(&corev1.Pod{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(r)
}

// Reconcile moves a PyTorchJob one step: created, running, suspended by
// Kueue, or finished.
func (r *pyTorchJobReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	job := &kftraining.PyTorchJob{}
	if err := r.client.Get(ctx, req.NamespacedName, job); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if job.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	pods, err := ownedPods(ctx, r.client, job, map[string]string{kftraining.JobNameLabel: job.Name})
	if err != nil {
		return ctrl.Result{}, err
	}
	orig := *job.Status.DeepCopy()
	now := metav1.NewTime(r.clock.Now())
	if !hasJobCondition(job.Status, kftraining.JobCreated) {
		setJobCondition(&job.Status, kftraining.JobCreated, corev1.ConditionTrue, kftraining.PyTorchJobKind+reasonCreated,
			fmt.Sprintf("PyTorchJob %s is created.", job.Name), now)
	}

	var st kftraining.JobStatus
	switch {
	case pyTorchFinished(job.Status):
		if err := r.cleanUp(ctx, job, pods); err != nil {
			return ctrl.Result{}, err
		}
		st = finishedPyTorchStatus(job)
	case ptr.Deref(job.Spec.RunPolicy.Suspend, false):
		if _, err := deletePods(ctx, r.client, pods, all); err != nil {
			return ctrl.Result{}, err
		}
		st = suspendedPyTorchStatus(job, now)
	default:
		if hasJobCondition(job.Status, kftraining.JobSuspended) {
			setJobCondition(&job.Status, kftraining.JobSuspended, corev1.ConditionFalse, kftraining.PyTorchJobKind+reasonResumed,
				fmt.Sprintf("PyTorchJob %s is resumed.", job.Name), now)
			job.Status.StartTime = &now
		}
		if terminating(pods) {
			// The pods of the previous run are still going; the operator
			// would count them as failed replicas.
			st = *job.Status.DeepCopy()
			break
		}
		if err := createMissing(ctx, r.client, pyTorchPods(job), pods); err != nil {
			return ctrl.Result{}, err
		}
		st = runningPyTorchStatus(job, pods, now)
		if pyTorchFinished(st) {
			job.Status = st
			if err := r.cleanUp(ctx, job, pods); err != nil {
				return ctrl.Result{}, err
			}
		}
	}
	return ctrl.Result{}, r.updateStatus(ctx, job, orig, st)
}

// pyTorchPods are the pods the operator makes for a job.
func pyTorchPods(job *kftraining.PyTorchJob) []*corev1.Pod {
	gvk := kftraining.SchemeGroupVersion.WithKind(kftraining.PyTorchJobKind)
	var out []*corev1.Pod
	for _, rt := range replicaTypes(job.Spec.PyTorchReplicaSpecs) {
		spec := job.Spec.PyTorchReplicaSpecs[rt]
		for i := range int(ptr.Deref(spec.Replicas, 1)) {
			p := newPod(job, gvk, pyTorchPodName(job.Name, rt, i), &spec.Template, pyTorchPodLabels(job.Name, rt, i))
			// The replica's restart policy overrides the template's
			// (SetRestartPolicy); ExitCode is Never at the pod level.
			p.Spec.RestartPolicy = corev1.RestartPolicy(spec.RestartPolicy)
			if spec.RestartPolicy == kftraining.RestartPolicyExitCode {
				p.Spec.RestartPolicy = corev1.RestartPolicyNever
			}
			out = append(out, p)
		}
	}
	return out
}

// cleanUp applies the job's cleanPodPolicy once it finished: None (the
// default) keeps every pod, Running deletes the pods still pending or
// running, All deletes all.
func (r *pyTorchJobReconciler) cleanUp(ctx context.Context, job *kftraining.PyTorchJob, pods []corev1.Pod) error {
	var del func(*corev1.Pod) bool
	switch ptr.Deref(job.Spec.RunPolicy.CleanPodPolicy, kftraining.CleanPodPolicyNone) {
	case kftraining.CleanPodPolicyAll:
		del = all
	case kftraining.CleanPodPolicyRunning:
		del = active
	default:
		return nil
	}
	_, err := deletePods(ctx, r.client, pods, del)
	return err
}

func (r *pyTorchJobReconciler) updateStatus(ctx context.Context, job *kftraining.PyTorchJob, orig, st kftraining.JobStatus) error {
	if apiequality.Semantic.DeepEqual(orig, st) {
		return nil
	}
	job.Status = st
	if err := r.client.Status().Update(ctx, job); err != nil {
		if apierrors.IsConflict(err) {
			return nil // a newer version is on its way to Reconcile
		}
		return fmt.Errorf("updating status of PyTorchJob %s/%s: %w", job.Namespace, job.Name, err)
	}
	return nil
}
