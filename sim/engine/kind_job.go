package engine

import (
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// jobKind is a batch/v1 Job: one pod per replica, all run to completion.
// Its run ends the default way, by its pods succeeding.
type jobKind struct{}

var _ workloadKind = jobKind{}

func (jobKind) object(o objectSpec) (client.Object, error) {
	return &batchv1.Job{ObjectMeta: o.meta, Spec: batchv1.JobSpec{
		Parallelism: ptr.To(o.replicas), Completions: ptr.To(o.replicas),
		Suspend: ptr.To(true), BackoffLimit: ptr.To[int32](0),
		Template: o.template("main"),
	}}, nil
}

// fromTemplate: the Job starts suspended, as the engine's own Jobs do
// (Kueue unsuspends it). Its run ends when its running pods end, so it must
// not make more pods after them: completions beyond parallelism become
// parallelism (Kueue counts min(parallelism, completions) pods either
// way), and a failing stream's Job gets no retries (backoffLimit, or
// backoffLimitPerIndex where the template sets it, 0).
func (jobKind) fromTemplate(o objectSpec, obj client.Object) (client.Object, error) {
	job, ok := obj.(*batchv1.Job)
	if !ok {
		return nil, notOfKind(obj, "batch/v1 Job")
	}
	o.stamp(job)
	o.stampPod(&job.Spec.Template)
	job.Spec.Suspend = ptr.To(true)
	if p, c := ptr.Deref(job.Spec.Parallelism, 1), job.Spec.Completions; c != nil && *c > p {
		job.Spec.Completions = ptr.To(p)
	}
	if o.stream.Fail {
		if job.Spec.BackoffLimitPerIndex != nil {
			job.Spec.BackoffLimitPerIndex = ptr.To[int32](0)
		} else {
			job.Spec.BackoffLimit = ptr.To[int32](0)
		}
	}
	return job, nil
}
