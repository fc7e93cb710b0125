package webhook

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite config/webhook/kueue-sim/manifests.yaml from Configurations")

const manifestsFile = "../config/webhook/kueue-sim/manifests.yaml"

// manifests renders Configurations as the YAML committed for real clusters.
func manifests(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("# kueue-sim's admission webhooks (package webhook), for a real cluster: a\n" +
		"# Service kueue-sim-webhook-service in namespace kueue-sim-system must front\n" +
		"# the webhook server. Generated from webhook.Configurations by\n" +
		"#   go test ./webhook -run TestManifestsMatchConfigurations -update\n" +
		"# Do not edit.\n")
	m, v := Configurations()
	for _, o := range []any{m[0], v[0]} {
		data, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("---\n")
		b.Write(data)
	}
	return b.Bytes()
}

func TestManifestsMatchConfigurations(t *testing.T) {
	want := manifests(t)
	if *update {
		if err := os.MkdirAll(filepath.Dir(manifestsFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(manifestsFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(manifestsFile)
	if err != nil {
		t.Fatalf("reading the committed manifests: %v (write them with -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from webhook.Configurations (-want +got); rewrite it with "+
			"`go test ./webhook -run TestManifestsMatchConfigurations -update`:\n%s", manifestsFile, diff)
	}
}
