package engine

import (
	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// pyTorchJobKind is a Kubeflow PyTorchJob: one master and the other
// replicas workers. Its run ends the default way, by its pods succeeding
// (the master last).
type pyTorchJobKind struct{}

var (
	_ workloadKind      = pyTorchJobKind{}
	_ kindWithOperators = pyTorchJobKind{}
)

func (pyTorchJobKind) object(o objectSpec) (client.Object, error) {
	specs := map[kftraining.ReplicaType]*kftraining.ReplicaSpec{
		kftraining.PyTorchJobReplicaTypeMaster: {Replicas: ptr.To[int32](1), Template: o.template(kftraining.PyTorchJobDefaultContainerName), RestartPolicy: kftraining.RestartPolicyNever},
	}
	if o.replicas > 1 {
		specs[kftraining.PyTorchJobReplicaTypeWorker] = &kftraining.ReplicaSpec{
			Replicas: ptr.To(o.replicas - 1), Template: o.template(kftraining.PyTorchJobDefaultContainerName), RestartPolicy: kftraining.RestartPolicyNever,
		}
	}
	return &kftraining.PyTorchJob{ObjectMeta: o.meta, Spec: kftraining.PyTorchJobSpec{
		RunPolicy:           kftraining.RunPolicy{Suspend: ptr.To(true)},
		PyTorchReplicaSpecs: specs,
	}}, nil
}

// fromTemplate: every replica type keeps its own template and replicas;
// the job starts suspended, as the engine's own PyTorchJobs do (Kueue
// unsuspends it).
func (pyTorchJobKind) fromTemplate(o objectSpec, obj client.Object) (client.Object, error) {
	job, ok := obj.(*kftraining.PyTorchJob)
	if !ok {
		return nil, notOfKind(obj, "kubeflow.org/v1 PyTorchJob")
	}
	o.stamp(job)
	for _, spec := range job.Spec.PyTorchReplicaSpecs {
		if spec != nil {
			o.stampPod(&spec.Template)
		}
	}
	job.Spec.RunPolicy.Suspend = ptr.To(true)
	return job, nil
}

// operators: the training operator runs PyTorchJobs (a fake one here).
func (pyTorchJobKind) operators() []fakes.Kind { return []fakes.Kind{fakes.PyTorchJob} }
