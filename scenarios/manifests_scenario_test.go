package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestManifestScenario loads a scenario whose queues are manifests and
// whose Kueue configuration is a file: a team given as {name, namespace}
// has the manifests' LocalQueues of its namespace, and the queue facts see
// the manifests' objects.
func TestManifestScenario(t *testing.T) {
	s, err := LoadFile("testdata/manifests.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Loaded.Manifests.Objects); n != 7 {
		t.Errorf("%d manifest objects, want 7", n)
	}
	if diff := cmp.Diff(map[string]string{"research/gpu": "research"}, s.LocalQueueTargets()); diff != "" {
		t.Errorf("LocalQueue targets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int32{"high": 1000}, s.PriorityValues()); diff != "" {
		t.Errorf("priorities (-want +got):\n%s", diff)
	}
	if got := s.ClusterQueueCohorts(); len(got) != 1 || got[0] != (NamedValue[string]{"research", "org"}) {
		t.Errorf("ClusterQueue cohorts = %v, want research in org", got)
	}
	if s.KueueSettings()["fairSharing"] == nil {
		t.Errorf("Kueue settings %v lack the file's fairSharing", s.KueueSettings())
	}
	if s.Loaded.KueueConfigFile != "testdata/kueue-config.yaml" {
		t.Errorf("Kueue configuration file = %q", s.Loaded.KueueConfigFile)
	}
}
