package kube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The dump imports without --cluster into a runnable scenario: streams per
// shape, the queues and a node pool inferred.
func TestFromWorkloadFilesInferred(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "research")
	imp, err := FromWorkloadFiles([]string{"testdata/workloads.yaml"}, WorkloadsOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(dir); err != nil {
		t.Fatal(err)
	}
	if inferred, incomplete := Marks(imp.Scenario.Description); !inferred || incomplete {
		t.Errorf("description marks inferred %v, incomplete %v: %s", inferred, incomplete, imp.Scenario.Description)
	}
	if !strings.HasPrefix(imp.Scenario.Description, InferredPrefix) {
		t.Errorf("description does not start with %q: %s", InferredPrefix, imp.Scenario.Description)
	}
	checkGolden(t, dir, "inferred")
}

// With --cluster SCENARIO the cluster, queues and teams are the scenario's,
// its relative paths rewritten; streams go to the team of their namespace.
func TestFromWorkloadFilesWithScenario(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	imp, err := FromWorkloadFiles([]string{"testdata/workloads.yaml"}, WorkloadsOptions{Cluster: "testdata/base/scenario.yaml", Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(out); err != nil {
		t.Fatal(err)
	}
	// The temporary folder's path varies: pin the rewritten references to
	// the golden folder's, so that it loads as it is.
	abs, _ := filepath.Abs("testdata/base")
	rel, _ := filepath.Rel(out, abs)
	checkGolden(t, out, "with-scenario", filepath.ToSlash(rel), "../../base")
}

// With --cluster DIR the folder's manifests are copied and a node pool is
// inferred per ResourceFlavor, with its node labels.
func TestFromWorkloadFilesWithManifests(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	imp, err := FromWorkloadFiles([]string{"testdata/workloads.yaml"}, WorkloadsOptions{Cluster: "testdata/base/queues", Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(out); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, out, "with-manifests")
}

func TestReadWorkloadsBadInput(t *testing.T) {
	for _, tc := range []struct {
		file, want string
	}{
		{"testdata/bad/not-workloads.yaml", "testdata/bad/not-workloads.yaml:1: items[0] (team/x): v1 ConfigMap is not a Kueue Workload (kueue.x-k8s.io): save one with `kubectl get workloads.kueue.x-k8s.io -A -o yaml"},
		{"testdata/bad/bad-yaml.yaml", "testdata/bad/bad-yaml.yaml:9 (document 2): not YAML or JSON: yaml: "},
		{"testdata/bad/bad-field.json", "testdata/bad/bad-field.json:1: items[0] (n/w): reading the Workload: "},
		{"testdata/bad/empty.yaml", "testdata/bad/empty.yaml: no Workloads in the file"},
		{"testdata/missing.yaml", "testdata/missing.yaml: cannot read the file (no such file or directory): save one with"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			_, err := ReadWorkloads(tc.file)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
			if !IsInputError(err) {
				t.Errorf("not an InputError: %v", err)
			}
		})
	}
}

// Writing refuses a folder that holds something else than an earlier
// import, and replaces an earlier import's manifests.
func TestWriteFolder(t *testing.T) {
	imp, err := FromWorkloadFiles([]string{"testdata/workloads.yaml"}, WorkloadsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(dir); err == nil || !strings.Contains(err.Error(), "give a new folder") {
		t.Fatalf("writing into a used folder: %v", err)
	}
	dir = t.TempDir()
	if err := imp.Write(dir); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, ManifestsDir, "stale.yaml")
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := imp.Write(dir); err != nil {
		t.Fatalf("rewriting an earlier import: %v", err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the earlier import's stale manifest is still there")
	}
}
