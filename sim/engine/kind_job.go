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
