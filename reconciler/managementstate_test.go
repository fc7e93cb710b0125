package reconciler

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// step summarises a plan without its messages.
type step struct {
	Cleanup, KueueCR, Namespaces, Defaults bool
	Observed                               dscv1.ManagementState
	Status                                 metav1.ConditionStatus
	Reason                                 string
}

func TestDecide(t *testing.T) {
	const (
		managed   = dscv1.Managed
		unmanaged = dscv1.Unmanaged
		removed   = dscv1.Removed
	)
	cases := []struct {
		name      string
		spec      dscv1.ManagementState
		last      dscv1.ManagementState
		installed bool
		want      step
	}{
		{"Unmanaged with the operator does everything", unmanaged, "", true,
			step{false, true, true, true, unmanaged, "True", dscv1.ReasonReady}},
		{"Unmanaged without the operator stops", unmanaged, "", false,
			step{false, false, false, false, "", "False", dscv1.ReasonOperatorNotInstalled}},
		{"a stop keeps the state last acted on", unmanaged, managed, false,
			step{false, false, false, false, managed, "False", dscv1.ReasonOperatorNotInstalled}},
		{"Managed without the operator creates defaults but no Kueue CR", managed, "", false,
			step{false, false, true, true, managed, "False", dscv1.ReasonManagedDeprecated}},
		{"Managed with the operator stops", managed, unmanaged, true,
			step{false, false, false, false, unmanaged, "False", dscv1.ReasonManagedConflictsWithOperator}},
		{"Removed after Managed cleans up", removed, managed, false,
			step{true, false, false, false, removed, "False", dscv1.ReasonRemoved}},
		{"Removed after Unmanaged leaves things in place", removed, unmanaged, true,
			step{false, false, false, false, removed, "False", dscv1.ReasonRemoved}},
		{"empty is Removed", "", managed, true,
			step{true, false, false, false, removed, "False", dscv1.ReasonRemoved}},
		{"Removed from the start", removed, "", false,
			step{false, false, false, false, removed, "False", dscv1.ReasonRemoved}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := decide(tc.spec, tc.last, tc.installed)
			got := step{p.cleanupManaged, p.kueueCR, p.namespaces, p.defaults, p.observed, p.cond.Status, p.cond.Reason}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("decide(%q, %q, %v) (-want +got):\n%s", tc.spec, tc.last, tc.installed, diff)
			}
			if p.cond.Message == "" {
				t.Error("empty condition message")
			}
		})
	}
}
