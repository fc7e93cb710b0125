package remote

import (
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

func TestPrefixedRenamesNamespacesAndLeavesTheScenario(t *testing.T) {
	s := &scenarios.Scenario{
		Name:  "s",
		Teams: []scenarios.Team{{Name: "ml", Namespace: "ml", Labels: map[string]string{"team": "ml"}}},
		Queues: scenarios.Queues{HardwareProfiles: []scenarios.HardwareProfile{
			{Name: "gpu", Namespace: "ml", LocalQueue: "training"},
		}},
	}
	got, err := Prefixed(s, "ks-abc-", "abc")
	if err != nil {
		t.Fatal(err)
	}
	if ns := got.Teams[0].Namespace; ns != "ks-abc-ml" {
		t.Errorf("team namespace %s, want ks-abc-ml", ns)
	}
	if l := got.Teams[0].Labels; l[RunLabel] != "abc" || l["team"] != "ml" {
		t.Errorf("team labels %v: want the run label beside the scenario's", l)
	}
	if ns := got.Queues.HardwareProfiles[0].Namespace; ns != "ks-abc-ml" {
		t.Errorf("hardware profile namespace %s, want ks-abc-ml", ns)
	}
	if s.Teams[0].Namespace != "ml" || s.Queues.HardwareProfiles[0].Namespace != "ml" || s.Teams[0].Labels[RunLabel] != "" {
		t.Error("Prefixed changed the scenario it was given")
	}
}

func TestPrefixedRefusesTooLongNamespaces(t *testing.T) {
	s := &scenarios.Scenario{Teams: []scenarios.Team{{Name: "t", Namespace: strings.Repeat("n", 60)}}}
	if _, err := Prefixed(s, "ks-abc-", "abc"); err == nil || !strings.Contains(err.Error(), "prefixing namespace") {
		t.Errorf("err = %v, want a refusal of the 67-character namespace", err)
	}
}
