package kube

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the imports' output")

// checkGolden compares the files written in dir with testdata/golden/name;
// -update rewrites the golden folder: read the diff before committing it.
func checkGolden(t *testing.T, dir, name string) {
	t.Helper()
	golden := filepath.Join("testdata", "golden", name)
	got := readTree(t, dir)
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
