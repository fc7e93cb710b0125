package webhook

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// ignoreDetail compares errors by type, field and value; message content is
// checked on its own.
var ignoreDetail = cmpopts.IgnoreFields(field.Error{}, "Detail")

func workload(kind string, labels, annotations map[string]string) *Workload {
	return &Workload{Kind: kind, Namespace: "team-a", Name: "w", Labels: labels, Annotations: annotations}
}

func dsc(state dscv1.ManagementState) *dscv1.DataScienceCluster {
	d := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: "default-dsc"}}
	d.Spec.Components.Kueue.ManagementState = state
	return d
}

func namespace(name string, labels map[string]string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

var (
	managed       = map[string]string{dscv1.KueueManagedLabel: "true"}
	legacyManaged = map[string]string{dscv1.LegacyKueueManagedLabel: "true"}
	enforced      = ScopeOf(dsc(dscv1.Unmanaged), "team-a", namespace("team-a", managed))
	notEnforced   = ScopeOf(dsc(dscv1.Unmanaged), "team-a", namespace("team-a", nil))
)

func TestScopeOf(t *testing.T) {
	cases := map[string]struct {
		dsc  *dscv1.DataScienceCluster
		ns   *corev1.Namespace
		want bool
	}{
		"Unmanaged, managed label":        {dsc(dscv1.Unmanaged), namespace("team-a", managed), true},
		"Managed, legacy label":           {dsc(dscv1.Managed), namespace("team-a", legacyManaged), true},
		"Removed":                         {dsc(dscv1.Removed), namespace("team-a", managed), false},
		"empty state means Removed":       {dsc(""), namespace("team-a", managed), false},
		"no DataScienceCluster":           {nil, namespace("team-a", managed), false},
		"namespace not managed":           {dsc(dscv1.Unmanaged), namespace("team-a", nil), false},
		"label not true":                  {dsc(dscv1.Unmanaged), namespace("team-a", map[string]string{dscv1.KueueManagedLabel: "false"}), false},
		"namespace absent (not yet read)": {dsc(dscv1.Unmanaged), nil, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := ScopeOf(tc.dsc, "team-a", tc.ns).Enforced(); got != tc.want {
				t.Errorf("Enforced() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestValidateQueueLabel(t *testing.T) {
	deleting := workload("RayJob", nil, nil)
	deleting.Deleting = true
	cases := map[string]struct {
		w     *Workload
		scope Scope
		want  field.ErrorList
	}{
		"labelled": {workload("Notebook", map[string]string{QueueLabel: "default"}, nil), enforced, nil},
		"no label": {workload("Notebook", nil, nil), enforced, field.ErrorList{
			field.Required(queuePath, "").WithOrigin(RuleQueueLabel)}},
		"empty label": {workload("PyTorchJob", map[string]string{QueueLabel: ""}, nil), enforced, field.ErrorList{
			field.Invalid(queuePath, "", "").WithOrigin(RuleQueueLabel)}},
		"namespace not managed": {workload("RayCluster", nil, nil), notEnforced, nil},
		"legacy label": {workload("InferenceService", nil, nil),
			ScopeOf(dsc(dscv1.Managed), "team-a", namespace("team-a", legacyManaged)),
			field.ErrorList{field.Required(queuePath, "").WithOrigin(RuleQueueLabel)}},
		"Kueue Removed": {workload("RayJob", nil, nil), ScopeOf(dsc(dscv1.Removed), "team-a", namespace("team-a", managed)), nil},
		"being deleted": {deleting, enforced, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ValidateQueueLabel(tc.w, tc.scope), ignoreDetail); diff != "" {
				t.Errorf("ValidateQueueLabel (-want +got):\n%s", diff)
			}
		})
	}
}

// mustSay fails unless msg contains every part.
func mustSay(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message lacks %q:\n%s", p, msg)
		}
	}
}

func TestQueueLabelMessageSaysWhatToDo(t *testing.T) {
	errs := ValidateQueueLabel(workload("Notebook", nil, nil), enforced)
	if len(errs) != 1 {
		t.Fatalf("got %v, want one error", errs)
	}
	mustSay(t, errs[0].Error(),
		`Notebook "w" in namespace "team-a"`, QueueLabel, dscv1.KueueManagedLabel+"=true",
		`DataScienceCluster "default-dsc" has Kueue Unmanaged`, "To fix: add the label kueue.x-k8s.io/queue-name=",
		`default LocalQueue is "default"`, "kubectl get localqueues -n team-a", HardwareProfileNameAnnotation)
}

func queueProfile(lq, pc string) *infrav1.HardwareProfile {
	return &infrav1.HardwareProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu", Namespace: "profiles"},
		Spec: infrav1.HardwareProfileSpec{Scheduling: &infrav1.SchedulingSpec{
			Type: infrav1.QueueScheduling, Kueue: &infrav1.KueueSchedulingSpec{LocalQueueName: lq, PriorityClass: pc},
		}},
	}
}

func nodeProfile() *infrav1.HardwareProfile {
	return &infrav1.HardwareProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "a100-nodes", Namespace: "profiles"},
		Spec: infrav1.HardwareProfileSpec{Scheduling: &infrav1.SchedulingSpec{
			Type: infrav1.NodeScheduling,
			Node: &infrav1.NodeSchedulingSpec{NodeSelector: map[string]string{"nvidia.com/gpu.product": "A100"}},
		}},
	}
}

func TestApplyHardwareProfile(t *testing.T) {
	cases := map[string]struct {
		labels       map[string]string
		profile      *infrav1.HardwareProfile
		wantLabels   map[string]string
		wantWarnings int
	}{
		"queue profile sets the queue": {
			profile: queueProfile("gpu-queue", ""), wantLabels: map[string]string{QueueLabel: "gpu-queue"}},
		"and the priority class": {
			labels:     map[string]string{"app": "x"},
			profile:    queueProfile("gpu-queue", "high"),
			wantLabels: map[string]string{"app": "x", QueueLabel: "gpu-queue", PriorityClassLabel: "high"}},
		"the dashboard's None is no priority class": {
			profile: queueProfile("gpu-queue", "None"), wantLabels: map[string]string{QueueLabel: "gpu-queue"}},
		"same label, no warning": {
			labels: map[string]string{QueueLabel: "gpu-queue"}, profile: queueProfile("gpu-queue", ""),
			wantLabels: map[string]string{QueueLabel: "gpu-queue"}},
		"different labels are replaced with warnings": {
			labels:  map[string]string{QueueLabel: "mine", PriorityClassLabel: "low"},
			profile: queueProfile("gpu-queue", "high"), wantWarnings: 2,
			wantLabels: map[string]string{QueueLabel: "gpu-queue", PriorityClassLabel: "high"}},
		"node profile changes nothing": {
			labels: map[string]string{QueueLabel: "mine"}, profile: nodeProfile(),
			wantLabels: map[string]string{QueueLabel: "mine"}},
		"profile without scheduling changes nothing": {
			profile: &infrav1.HardwareProfile{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := workload("Notebook", tc.labels, nil)
			warnings := ApplyHardwareProfile(w, tc.profile)
			if diff := cmp.Diff(tc.wantLabels, w.Labels, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if len(warnings) != tc.wantWarnings {
				t.Errorf("warnings %q, want %d", warnings, tc.wantWarnings)
			}
		})
	}
}

func TestHardwareProfileMessages(t *testing.T) {
	w := workload("Notebook", map[string]string{QueueLabel: "mine"}, nil)
	warnings := ApplyHardwareProfile(w, queueProfile("gpu-queue", ""))
	if len(warnings) != 1 {
		t.Fatalf("warnings %q, want 1", warnings)
	}
	mustSay(t, warnings[0], `Notebook "w" in namespace "team-a"`, QueueLabel+`="mine" replaced by "gpu-queue"`,
		`HardwareProfile "gpu" in namespace "profiles"`, "remove the annotation "+HardwareProfileNameAnnotation)

	mustSay(t, MissingHardwareProfile(w, "profiles", "gone").Error(),
		`Notebook "w" in namespace "team-a" names HardwareProfile "gone" in namespace "profiles"`, "does not exist",
		HardwareProfileNamespaceAnnotation, "kubectl get hardwareprofiles -n profiles")

	errs := ValidateProfileScheduling(w, enforced, nodeProfile())
	if len(errs) != 1 {
		t.Fatalf("got %v, want one error", errs)
	}
	mustSay(t, errs[0].Error(), `HardwareProfile "a100-nodes" in namespace "profiles"`, "scheduling type is Node",
		"Kueue-managed", "To fix: use a HardwareProfile of scheduling type Queue", "LocalQueue", "ResourceFlavor", "spec.nodeLabels")
}

func TestValidateProfileScheduling(t *testing.T) {
	cases := map[string]struct {
		scope   Scope
		profile *infrav1.HardwareProfile
		want    field.ErrorList
	}{
		"queue profile":                   {enforced, queueProfile("q", ""), nil},
		"node profile":                    {enforced, nodeProfile(), field.ErrorList{field.Forbidden(profilePath, "").WithOrigin(RuleNodeProfile)}},
		"node profile, not Kueue-managed": {notEnforced, nodeProfile(), nil},
		"no scheduling":                   {enforced, &infrav1.HardwareProfile{}, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ValidateProfileScheduling(workload("RayCluster", nil, nil), tc.scope, tc.profile)
			if diff := cmp.Diff(tc.want, got, ignoreDetail); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateAccelerator(t *testing.T) {
	with := map[string]string{AcceleratorNameAnnotation: "migrated-gpu"}
	cases := map[string]struct {
		annotations map[string]string
		scope       Scope
		want        field.ErrorList
	}{
		"accelerator profile":                    {with, enforced, field.ErrorList{field.Forbidden(acceleratorPath, "").WithOrigin(RuleAcceleratorProfile)}},
		"accelerator profile, not Kueue-managed": {with, notEnforced, nil},
		"none":                                   {nil, enforced, nil},
		"empty annotation":                       {map[string]string{AcceleratorNameAnnotation: ""}, enforced, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ValidateAccelerator(workload("Notebook", nil, tc.annotations), tc.scope)
			if diff := cmp.Diff(tc.want, got, ignoreDetail); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	errs := ValidateAccelerator(workload("Notebook", nil, with), enforced)
	mustSay(t, errs[0].Error(), `Notebook "w" in namespace "team-a" uses AcceleratorProfile "migrated-gpu"`, "deprecated",
		"To fix: migrate to hardware profiles", "remove the annotation "+AcceleratorNameAnnotation, HardwareProfileNameAnnotation)
}

// cq makes a ClusterQueue with a cpu quota; borrowingLimit "" means none.
func cq(name string, cohort kueue.CohortReference, within, reclaim kueue.PreemptionPolicy, borrowingLimit string) kueue.ClusterQueue {
	w := utiltesting.MakeClusterQueue(name).Cohort(cohort).
		ResourceGroup(*utiltesting.MakeFlavorQuotas("default-flavor").Resource(corev1.ResourceCPU, "10", borrowingLimit).Obj())
	if within != "" || reclaim != "" {
		w.Preemption(kueue.ClusterQueuePreemption{WithinClusterQueue: within, ReclaimWithinCohort: reclaim})
	}
	return *w.Obj()
}

const (
	never = kueue.PreemptionPolicyNever
	lower = kueue.PreemptionPolicyLowerPriority
	anyP  = kueue.PreemptionPolicyAny
)

func TestPreemptionRisks(t *testing.T) {
	cohorts := []kueue.Cohort{
		*utiltesting.MakeCohort("team-a").Parent("org").Obj(),
		*utiltesting.MakeCohort("team-b").Parent("org").Obj(),
		*utiltesting.MakeCohort("loop-1").Parent("loop-2").Obj(),
		*utiltesting.MakeCohort("loop-2").Parent("loop-1").Obj(),
	}
	cases := map[string]struct {
		cq     kueue.ClusterQueue
		others []kueue.ClusterQueue
		want   []string // a distinctive part of each reason
	}{
		"defaults (like the platform's default ClusterQueue)": {cq: cq("nb", "", "", "", "")},
		"explicit Never":                   {cq: cq("nb", "", never, never, "")},
		"withinClusterQueue LowerPriority": {cq: cq("nb", "", lower, never, ""), want: []string{"withinClusterQueue is LowerPriority"}},
		"reclaimWithinCohort Any":          {cq: cq("nb", "c", never, anyP, "0"), want: []string{"reclaimWithinCohort is Any"}},
		"borrows where another one reclaims": {
			cq:     cq("nb", "c", never, never, ""),
			others: []kueue.ClusterQueue{cq("train", "c", never, lower, ""), cq("serve", "c", never, never, "")},
			want:   []string{`ClusterQueue "train" has preemption.reclaimWithinCohort LowerPriority`}},
		"cannot borrow (borrowingLimit 0)": {
			cq:     cq("nb", "c", never, never, "0"),
			others: []kueue.ClusterQueue{cq("train", "c", never, lower, "")}},
		"reclaimer in another cohort": {
			cq:     cq("nb", "c", never, never, ""),
			others: []kueue.ClusterQueue{cq("train", "d", never, anyP, "")}},
		"reclaimer elsewhere in the cohort tree": {
			cq:     cq("nb", "team-a", never, never, ""),
			others: []kueue.ClusterQueue{cq("train", "team-b", never, anyP, "")},
			want:   []string{`borrow in cohort "org", where ClusterQueue "train"`}},
		"cohort cycle is one tree": {
			cq:     cq("nb", "loop-1", never, never, ""),
			others: []kueue.ClusterQueue{cq("train", "loop-2", never, anyP, "")},
			want:   []string{`borrow in cohort "loop-1", where ClusterQueue "train"`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			all := append([]kueue.ClusterQueue{tc.cq}, tc.others...)
			got := PreemptionRisks(&tc.cq, all, cohorts)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d risks %q, want %d", len(got), got, len(tc.want))
			}
			for i := range got {
				mustSay(t, got[i], tc.want[i])
			}
		})
	}
}

func TestValidateNotebookQueue(t *testing.T) {
	safe := cq("safe", "", "", "", "")
	risky := cq("risky", "", lower, never, "")
	lq := utiltesting.MakeLocalQueue("team", "team-a").ClusterQueue("safe").Obj()
	nb := workload("Notebook", map[string]string{QueueLabel: "team"}, nil)
	cases := map[string]struct {
		w     *Workload
		scope Scope
		lq    *kueue.LocalQueue
		cq    *kueue.ClusterQueue
		want  field.ErrorList
	}{
		"non-preemptive":    {nb, enforced, lq, &safe, nil},
		"preemptive":        {nb, enforced, lq, &risky, field.ErrorList{field.Forbidden(queuePath, "").WithOrigin(RuleNotebookQueue)}},
		"no LocalQueue":     {nb, enforced, nil, nil, field.ErrorList{field.Invalid(queuePath, "team", "").WithOrigin(RuleNotebookQueue)}},
		"no ClusterQueue":   {nb, enforced, lq, nil, field.ErrorList{field.Invalid(queuePath, "team", "").WithOrigin(RuleNotebookQueue)}},
		"not Kueue-managed": {nb, notEnforced, lq, &risky, nil},
		"other kinds may be preempted": {
			workload("PyTorchJob", map[string]string{QueueLabel: "team"}, nil), enforced, lq, &risky, nil},
		"no queue is rule 1's business": {workload("Notebook", nil, nil), enforced, nil, nil, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ValidateNotebookQueue(tc.w, tc.scope, tc.lq, tc.cq, nil, nil)
			if diff := cmp.Diff(tc.want, got, ignoreDetail); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	errs := ValidateNotebookQueue(nb, enforced, lq, &risky, nil, nil)
	mustSay(t, errs[0].Error(), `Notebook "w" in namespace "team-a" names LocalQueue "team"`, `ClusterQueue "risky" is preemptive`,
		"withinClusterQueue is LowerPriority", "must not be preempted", "To fix: name a LocalQueue whose ClusterQueue has preemption.withinClusterQueue Never",
		`default LocalQueue "default"`)
	errs = ValidateNotebookQueue(nb, enforced, nil, nil, nil, nil)
	mustSay(t, errs[0].Error(), `LocalQueue "team", which does not exist in namespace "team-a"`, `create LocalQueue "team"`)
}

func TestMutatingConfigurationRunsBeforeKueues(t *testing.T) {
	// The API server calls mutating configurations in name order.
	for _, kueueName := range []string{"mutating-webhook-configuration", "kueue-mutating-webhook-configuration"} {
		if MutatingConfigurationName >= kueueName {
			t.Errorf("%q does not sort before Kueue's %q: Kueue would not see the queue label a profile sets", MutatingConfigurationName, kueueName)
		}
	}
}
