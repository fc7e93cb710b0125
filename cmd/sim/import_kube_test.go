package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sim import workloads writes a scenario folder from a dump, and refuses bad
// input with exit code 2 and the file's line. In process: nothing starts.
func TestImportWorkloadsCmd(t *testing.T) {
	data := filepath.Join("..", "..", "importer", "kube", "testdata")
	out := filepath.Join(t.TempDir(), "replay")
	code, msg := simCmd(t, "import", "workloads", filepath.Join(data, "workloads.yaml"), "-o", out)
	if code != 0 || !strings.Contains(msg, "7 workloads in 5 streams") || !strings.Contains(msg, "inferred: node pool default") {
		t.Fatalf("exit %d:\n%s", code, msg)
	}
	scenario, err := os.ReadFile(filepath.Join(out, "scenario.yaml"))
	if err != nil || !strings.Contains(string(scenario), "description: 'Inferred:") {
		t.Fatalf("scenario.yaml: %v\n%s", err, scenario)
	}
	for _, f := range []string{"clusterqueues.yaml", "localqueues.yaml", "resourceflavors.yaml", "cohorts.yaml"} {
		if _, err := os.Stat(filepath.Join(out, "manifests", f)); err != nil {
			t.Errorf("manifests/%s: %v", f, err)
		}
	}

	for _, tc := range []struct{ file, want string }{
		{"bad/not-workloads.yaml", "not-workloads.yaml:1: items[0] (team/x): v1 ConfigMap is not a Kueue Workload"},
		{"bad/bad-yaml.yaml", "bad-yaml.yaml:9 (document 2): not YAML or JSON"},
		{"nothing.yaml", "nothing.yaml: cannot read the file (no such file or directory)"},
	} {
		code, msg := simCmd(t, "import", "workloads", filepath.Join(data, tc.file), "-o", filepath.Join(t.TempDir(), "x"))
		if code != 2 || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: exit %d, want 2 and %q:\n%s", tc.file, code, tc.want, msg)
		}
	}
}
