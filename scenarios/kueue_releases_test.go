package scenarios

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

const releasesScenario = `apiVersion: kueue-sim/v1alpha1
kind: Scenario
cluster:
  nodePools:
  - {name: cpu, count: 1, allocatable: {cpu: "64", memory: 256Gi}}
  kueue:
    fairSharing: {preemptionStrategies: [LessThanOrEqualToFinalShare]}
    featureGates: {TASFailedNodeReplacement: true}
  kueueReleases:
    %MINOR%:
      featureGates: {PartialAdmission: false}
      fairSharing: null
    %RELEASE%:
      featureGates: {PartialAdmission: true}
    v0.1:
      waitForPodsReady: {}
queues:
  resourceFlavors: [{name: default}]
  clusterQueues:
  - name: cq
    resourceGroups:
    - flavors:
      - name: default
        resources: {cpu: {nominal: "8"}}
teams:
- name: t
  localQueues: [{name: lq, clusterQueue: cq}]
workloads:
- {name: w, team: t, kind: Job, arrival: {at: [0s]}, duration: {fixed: 1m}, requests: {cpu: "1"}, queue: lq}
`

func releasesYAML(minor, release string) string {
	return strings.NewReplacer("%MINOR%", minor, "%RELEASE%", release).Replace(releasesScenario)
}

// The bodies that select the running release are laid over cluster.kueue,
// the minor's first; the others are left out.
func TestKueueSettingsForRelease(t *testing.T) {
	compiled := kueuerelease.Compiled()
	minor := kueuerelease.Minor(compiled)
	data := strings.Replace(releasesYAML(minor, compiled), "    v0.1:\n      waitForPodsReady: {}\n", "", 1)
	s, err := Load("releases.yaml", "releases", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"featureGates": map[string]any{"TASFailedNodeReplacement": true, "PartialAdmission": true}}
	if diff := cmp.Diff(want, s.KueueSettings()); diff != "" {
		t.Errorf("KueueSettings() (-want +got):\n%s", diff)
	}
	other := map[string]any{
		"fairSharing":  map[string]any{"preemptionStrategies": []any{"LessThanOrEqualToFinalShare"}},
		"featureGates": map[string]any{"TASFailedNodeReplacement": true},
	}
	if diff := cmp.Diff(other, s.KueueSettingsFor("v9.9.9")); diff != "" {
		t.Errorf("KueueSettingsFor another release (-want +got):\n%s", diff)
	}
	if _, ok := s.Cluster.Kueue["featureGates"].(map[string]any)["PartialAdmission"]; ok {
		t.Error("laying a release's body over cluster.kueue changed cluster.kueue")
	}
}

// A body that selects the running release is checked against its
// Configuration; a key that selects no supported release is refused.
func TestKueueReleasesChecked(t *testing.T) {
	compiled := kueuerelease.Compiled()
	data := strings.Replace(releasesYAML(kueuerelease.Minor(compiled), compiled), "{PartialAdmission: true}", "{PartialAdmission: true}\n      waitForPodReady: {}", 1)
	_, err := Load("releases.yaml", "releases", []byte(data))
	var verr *Error
	if !errors.As(err, &verr) {
		t.Fatalf("Load = %v, want an *Error", err)
	}
	checkProblems(t, verr)
	got := err.Error()
	for _, want := range []string{
		"cluster.kueueReleases[" + compiled + "].waitForPodReady: unknown field",
		`cluster.kueueReleases[v0.1]: Invalid value: "v0.1": kueue-sim runs Kueue`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the error lacks %q:\n%s", want, got)
		}
	}
}
