package scenarios

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// TestChangesScenario loads a scenario whose changes stop a ClusterQueue,
// run it again with a raised quota, and delete a LocalQueue: each change's
// apply files are loaded at the change's index, and a change without apply
// has none.
func TestChangesScenario(t *testing.T) {
	s, err := LoadFile("testdata/changes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Loaded.Changes) != len(s.Changes) || len(s.Changes) != 3 {
		t.Fatalf("%d changes loaded for %d changes, want 3 and 3", len(s.Loaded.Changes), len(s.Changes))
	}
	gpus := func(i int) (kueue.StopPolicy, string) {
		t.Helper()
		set := s.Loaded.Changes[i]
		if set == nil || len(set.Objects) != 1 || len(set.ClusterQueues()) != 1 {
			t.Fatalf("change %d loaded %v, want one ClusterQueue", i, set)
		}
		cq := set.ClusterQueues()[0].Obj
		if cq.Name != "research" {
			t.Errorf("change %d applies ClusterQueue %q, want research", i, cq.Name)
		}
		policy := kueue.None
		if cq.Spec.StopPolicy != nil {
			policy = *cq.Spec.StopPolicy
		}
		q := cq.Spec.ResourceGroups[0].Flavors[0].Resources[1].NominalQuota
		return policy, q.String()
	}
	if policy, q := gpus(0); policy != kueue.HoldAndDrain || q != "8" {
		t.Errorf("change 0: stopPolicy %s, %s GPUs; want HoldAndDrain, 8", policy, q)
	}
	if policy, q := gpus(1); policy != kueue.None || q != "16" {
		t.Errorf("change 1: stopPolicy %s, %s GPUs; want None, 16", policy, q)
	}
	if s.Loaded.Changes[2] != nil {
		t.Errorf("change 2 deletes only, yet loaded %v", s.Loaded.Changes[2])
	}
	want := []ObjectRef{{Kind: "LocalQueue", Namespace: "research", Name: "spare"}}
	if diff := cmp.Diff(want, s.Changes[2].Delete); diff != "" {
		t.Errorf("change 2 deletes (-want +got):\n%s", diff)
	}
}

// TestChangesWithoutApply checks that changes deleting only leave
// Loaded.Changes index-aligned and empty, and that a scenario without
// changes has none.
func TestChangesWithoutApply(t *testing.T) {
	s, err := Load("edge.yaml", "edge", []byte(minimal+`changes:
- {at: 0s, delete: [{kind: Cohort, name: org}, {kind: Topology, name: dc}]}
- {at: 8760h, delete: [{kind: ResourceFlavor, name: a100.v2}, {kind: WorkloadPriorityClass, name: high}, {kind: ClusterQueue, name: research}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Loaded.Changes) != 2 || s.Loaded.Changes[0] != nil || s.Loaded.Changes[1] != nil {
		t.Errorf("Loaded.Changes = %v, want two nil sets", s.Loaded.Changes)
	}
	s, err = Load("edge.yaml", "edge", []byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	if s.Loaded.Changes != nil {
		t.Errorf("Loaded.Changes = %v without changes, want nil", s.Loaded.Changes)
	}
}

// TestChangesFileLimit checks that the changes' apply files count
// together: two changes of 501 files each are over manifests.MaxFiles,
// and the second says so.
func TestChangesFileLimit(t *testing.T) {
	dir := t.TempDir()
	many := filepath.Join(dir, "many")
	if err := os.Mkdir(many, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 501 {
		obj := fmt.Sprintf("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: c%d}\n", i)
		if err := os.WriteFile(filepath.Join(many, fmt.Sprintf("c%03d.yaml", i)), []byte(obj), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "s.yaml")
	data := minimal + "changes:\n- {at: 1m, apply: [many/]}\n- {at: 2m, apply: [many/]}\n"
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(file)
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) != 1 {
		t.Fatalf("LoadFile = %v, want one problem", err)
	}
	p := e.Problems[0]
	if p.Field != "changes[1].apply" || !strings.Contains(p.Msg, "1002 files holding 1002 objects, over the limit of 1000 files") {
		t.Errorf("problem %s, want the file limit at changes[1].apply", p.String(file))
	}
}
