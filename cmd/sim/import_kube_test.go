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

// With --owners the Workloads whose owner the dump holds replay its
// manifest, written to templates/; the output says how many do. --redact
// needs --owners; a bad owners dump exits 2 with its line.
func TestImportWorkloadsOwnersCmd(t *testing.T) {
	data := filepath.Join("..", "..", "importer", "kube", "testdata", "owners")
	out := filepath.Join(t.TempDir(), "replay")
	code, msg := simCmd(t, "import", "workloads", filepath.Join(data, "workloads.yaml"),
		"--owners", filepath.Join(data, "owners.yaml"), "--redact", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, msg)
	}
	for _, want := range []string{
		"wrote " + filepath.Join(out, "templates") + ": 5 templates",
		"owners: 7 of 10 workloads replay their owner's manifest (5 templates in templates/); 3 are rebuilt from their pod sets",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("output lacks %q:\n%s", want, msg)
		}
	}
	job, err := os.ReadFile(filepath.Join(out, "templates", "research-job-train-a.yaml"))
	if err != nil || strings.Contains(string(job), "WANDB_API_KEY") || !strings.Contains(string(job), "image: registry.example.com/llm/finetune:3.1") {
		t.Errorf("the redacted Job's template: %v\n%s", err, job)
	}
	if code, msg := validateCmd(t, "", filepath.Join(out, "scenario.yaml")); code != 0 {
		t.Errorf("the imported scenario is invalid:\n%s", msg)
	}

	code, msg = simCmd(t, "import", "workloads", filepath.Join(data, "workloads.yaml"), "--redact", "-o", filepath.Join(t.TempDir(), "x"))
	if code != 2 || !strings.Contains(msg, "--redact applies to the owners' manifests") {
		t.Errorf("--redact without --owners: exit %d:\n%s", code, msg)
	}
	bad := filepath.Join(t.TempDir(), "owners.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: List\nitems:\n- [x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, msg = simCmd(t, "import", "workloads", filepath.Join(data, "workloads.yaml"), "--owners", bad, "-o", filepath.Join(t.TempDir(), "y"))
	if code != 2 || !strings.Contains(msg, "owners.yaml:1: not YAML or JSON") {
		t.Errorf("a bad owners dump: exit %d:\n%s", code, msg)
	}
}
