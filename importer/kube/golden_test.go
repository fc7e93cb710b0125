package kube

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the imports' output")

// checkGolden checks that the scenario written in dir loads, then compares
// the files with testdata/golden/name, each string of pins (old, new pairs
// of strings.NewReplacer) replaced; -update rewrites the golden folder:
// read the diff before committing it.
func checkGolden(t *testing.T, dir, name string, pins ...string) {
	t.Helper()
	if _, err := scenarios.LoadFile(filepath.Join(dir, ScenarioFile)); err != nil {
		t.Errorf("the imported scenario does not load: %v", err)
	}
	golden := filepath.Join("testdata", "golden", name)
	got := readTree(t, dir)
	if len(pins) > 0 {
		r := strings.NewReplacer(pins...)
		for rel, data := range got {
			got[rel] = r.Replace(data)
		}
	}
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		for rel, data := range got {
			p := filepath.Join(golden, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want := readTree(t, golden)
	if len(want) == 0 {
		t.Fatalf("no golden files in %s: run with -update to write them", golden)
	}
	for _, rel := range union(want, got) {
		if diff := cmp.Diff(want[rel], got[rel]); diff != "" {
			t.Errorf("%s differs from %s (-want +got):\n%s", rel, golden, diff)
		}
	}
}

// readTree maps each file under dir (relative path) to its content.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func union(a, b map[string]string) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Every golden scenario loads from its own folder, as a user's copy of an
// import would: sim validate accepts what sim import writes.
func TestGoldenScenariosLoad(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*", ScenarioFile))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden scenarios: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			if _, err := scenarios.LoadFile(f); err != nil {
				t.Error(err)
			}
		})
	}
}
