package assets

import (
	"testing"
)

// The Kueue operator's CRD is installed only on request: its presence is
// what "the operator is installed" means, so CRDs must leave it out.
func TestKueueOperatorCRDIsOptional(t *testing.T) {
	const name = "kueues.kueue.openshift.io"
	crds, err := CRDs()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, c := range crds {
		have[c.Name] = true
	}
	if have[name] {
		t.Errorf("CRDs() includes the optional %s", name)
	}
	for _, want := range []string{
		"datascienceclusters.datasciencecluster.opendatahub.io",
		"hardwareprofiles.infrastructure.opendatahub.io",
		"odhdashboardconfigs.opendatahub.io",
		"acceleratorprofiles.dashboard.opendatahub.io",
	} {
		if !have[want] {
			t.Errorf("CRDs() lacks %s", want)
		}
	}
	op, err := KueueOperatorCRD()
	if err != nil {
		t.Fatal(err)
	}
	if op.Name != name {
		t.Errorf("KueueOperatorCRD() = %s, want %s", op.Name, name)
	}
}
