package webhook

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// snapshot is a cluster with Kueue Unmanaged, managed namespace team-a with
// LocalQueues "default" (non-preemptive ClusterQueue) and "batch"
// (preemptive), and profiles gpu (Queue → default) and a100-nodes (Node)
// in namespace profiles.
func snapshot() *Snapshot {
	return &Snapshot{
		DataScienceClusters: []dscv1.DataScienceCluster{*dsc(dscv1.Unmanaged)},
		Namespaces:          []corev1.Namespace{*namespace("team-a", managed), *namespace("profiles", nil)},
		HardwareProfiles:    []infrav1.HardwareProfile{*queueProfile("default", "high"), *nodeProfile()},
		LocalQueues: []kueue.LocalQueue{
			*utiltesting.MakeLocalQueue("default", "team-a").ClusterQueue("default").Obj(),
			*utiltesting.MakeLocalQueue("batch", "team-a").ClusterQueue("batch").Obj(),
		},
		ClusterQueues: []kueue.ClusterQueue{cq("default", "", "", "", ""), cq("batch", "", lower, never, "")},
	}
}

func profileAnn(name string) map[string]string {
	return map[string]string{HardwareProfileNameAnnotation: name, HardwareProfileNamespaceAnnotation: "profiles"}
}

func TestDefaultThenValidate(t *testing.T) {
	ctx := context.Background()
	f := snapshot().Facts()
	cases := map[string]struct {
		w, old       *Workload
		wantLabels   map[string]string
		wantDefault  field.ErrorList
		wantValidate field.ErrorList
	}{
		"a Queue profile satisfies rule 1": {
			w:          workload("Notebook", nil, profileAnn("gpu")),
			wantLabels: map[string]string{QueueLabel: "default", PriorityClassLabel: "high"},
		},
		"a missing profile is refused": {
			w:           workload("RayJob", nil, profileAnn("gone")),
			wantDefault: field.ErrorList{field.Invalid(profilePath, "gone", "").WithOrigin(RuleHardwareProfile)},
			// Validate still runs in the API server only if Default
			// admitted; here it reports rule 1 alone.
			wantValidate: field.ErrorList{field.Required(queuePath, "").WithOrigin(RuleQueueLabel)},
		},
		"an update that leaves the profile alone is not relabelled": {
			w:          workload("RayJob", map[string]string{QueueLabel: "mine"}, profileAnn("gpu")),
			old:        workload("RayJob", map[string]string{QueueLabel: "default"}, profileAnn("gpu")),
			wantLabels: map[string]string{QueueLabel: "mine"},
		},
		"an update that changes the profile is relabelled": {
			w:          workload("Notebook", map[string]string{QueueLabel: "mine"}, profileAnn("gpu")),
			old:        workload("Notebook", map[string]string{QueueLabel: "mine"}, nil),
			wantLabels: map[string]string{QueueLabel: "default", PriorityClassLabel: "high"},
		},
		"a missing profile does not wedge updates that leave it alone": {
			w:          workload("RayJob", map[string]string{QueueLabel: "default"}, profileAnn("gone")),
			old:        workload("RayJob", map[string]string{QueueLabel: "default"}, profileAnn("gone")),
			wantLabels: map[string]string{QueueLabel: "default"},
		},
		"a Node profile is refused": {
			w:            workload("PyTorchJob", map[string]string{QueueLabel: "default"}, profileAnn("a100-nodes")),
			wantLabels:   map[string]string{QueueLabel: "default"},
			wantValidate: field.ErrorList{field.Forbidden(profilePath, "").WithOrigin(RuleNodeProfile)},
		},
		"a Node profile kept on update is not checked again": {
			w:          workload("PyTorchJob", map[string]string{QueueLabel: "default", "x": "y"}, profileAnn("a100-nodes")),
			old:        workload("PyTorchJob", map[string]string{QueueLabel: "default"}, profileAnn("a100-nodes")),
			wantLabels: map[string]string{QueueLabel: "default", "x": "y"},
		},
		"a Notebook on a preemptive ClusterQueue is refused": {
			w:            workload("Notebook", map[string]string{QueueLabel: "batch"}, nil),
			wantLabels:   map[string]string{QueueLabel: "batch"},
			wantValidate: field.ErrorList{field.Forbidden(queuePath, "").WithOrigin(RuleNotebookQueue)},
		},
		"moving a Notebook to a preemptive ClusterQueue is refused": {
			w:            workload("Notebook", map[string]string{QueueLabel: "batch"}, nil),
			old:          workload("Notebook", map[string]string{QueueLabel: "default"}, nil),
			wantLabels:   map[string]string{QueueLabel: "batch"},
			wantValidate: field.ErrorList{field.Forbidden(queuePath, "").WithOrigin(RuleNotebookQueue)},
		},
		"every broken rule is reported": {
			w: workload("Notebook", nil, map[string]string{
				HardwareProfileNameAnnotation: "a100-nodes", HardwareProfileNamespaceAnnotation: "profiles",
				AcceleratorNameAnnotation: "gpu"}),
			wantValidate: field.ErrorList{
				field.Required(queuePath, "").WithOrigin(RuleQueueLabel),
				field.Forbidden(profilePath, "").WithOrigin(RuleNodeProfile),
				field.Forbidden(acceleratorPath, "").WithOrigin(RuleAcceleratorProfile)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, errs, err := Default(ctx, f, tc.w, tc.old)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantDefault, errs, ignoreDetail); diff != "" {
				t.Errorf("Default errors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantLabels, tc.w.Labels, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("labels after Default (-want +got):\n%s", diff)
			}
			errs, err = Validate(ctx, f, tc.w, tc.old)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantValidate, errs, ignoreDetail); diff != "" {
				t.Errorf("Validate errors (-want +got):\n%s", diff)
			}
		})
	}
}
