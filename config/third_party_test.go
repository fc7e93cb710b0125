package config

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

var update = flag.Bool("update", false, "rewrite config/crd/third_party and config/kueue from the modules they copy (make manifests)")

// thirdParty lists the manifests copied from kueue-sim's dependencies, as
// Kueue's own Makefile copies them: a file (or glob) in a module at a
// version ("": the one go.mod pins), the folder here it goes to and, when
// renamed, its name there. Kueue's come from every supported release.
func thirdParty() []copied {
	out := []copied{
		{"github.com/kubeflow/training-operator", "", "manifests/base/crds/kubeflow.org_pytorchjobs.yaml", "crd/third_party", ""},
		{"github.com/ray-project/kuberay/ray-operator", "", "config/crd/bases/ray.io_rayjobs.yaml", "crd/third_party", ""},
		{"github.com/ray-project/kuberay/ray-operator", "", "config/crd/bases/ray.io_rayclusters.yaml", "crd/third_party", ""},
	}
	for _, r := range kueuerelease.Supported {
		out = append(out,
			copied{"sigs.k8s.io/kueue", r, "config/components/crd/bases/*.yaml", "kueue/" + r + "/crd", ""},
			copied{"sigs.k8s.io/kueue", r, "config/components/webhook/manifests.yaml", "kueue/" + r + "/webhook", "kueue-webhooks.yaml"})
	}
	return out
}

type copied struct {
	module, version, glob, dest, rename string
}

// The copies are committed so that `go build ./cmd/sim` and `go install`
// make a working binary; this test keeps them equal to the pinned modules'.
func TestThirdPartyManifestsMatchPinnedModules(t *testing.T) {
	want := map[string][]byte{}
	dirs := map[string]bool{}
	for _, tp := range thirdParty() {
		dir := moduleDir(t, tp.module, tp.version)
		files, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(tp.glob)))
		if err != nil || len(files) == 0 {
			t.Fatalf("no file %s in %s@%s (%v)", tp.glob, tp.module, dir, err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(f)
			if tp.rename != "" {
				name = tp.rename
			}
			want[path.Join(tp.dest, name)] = data
		}
		dirs[tp.dest] = true
	}
	got := map[string][]byte{}
	// Every release folder is looked at, so one no longer supported shows up.
	releases, _ := filepath.Glob(filepath.Join("kueue", "*", "*"))
	for _, dir := range releases {
		dirs[filepath.ToSlash(dir)] = true
	}
	for dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.yaml"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got[filepath.ToSlash(f)] = data
		}
	}

	if *update {
		for f := range got {
			if err := os.Remove(filepath.FromSlash(f)); err != nil {
				t.Fatal(err)
			}
		}
		for f, data := range want {
			if err := os.MkdirAll(filepath.Dir(filepath.FromSlash(f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.FromSlash(f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %d third-party manifests", len(want))
		return
	}
	var problems []string
	for _, f := range sortedKeys(want) {
		switch g, ok := got[f]; {
		case !ok:
			problems = append(problems, "config/"+f+" is missing")
		case !bytes.Equal(g, want[f]):
			problems = append(problems, "config/"+f+" differs from the pinned module's copy")
		}
	}
	for _, f := range sortedKeys(got) {
		if _, ok := want[f]; !ok {
			problems = append(problems, "config/"+f+" comes from no pinned module")
		}
	}
	if len(problems) > 0 {
		t.Errorf("%s\nrefresh them with `make manifests` (go test ./config -run TestThirdPartyManifestsMatchPinnedModules -update) and commit them",
			strings.Join(problems, "\n"))
	}
}

// moduleDir returns the module cache folder of a module at version (""
// for the one go.mod requires), downloading it when it is not there yet.
func moduleDir(t *testing.T, module, version string) string {
	t.Helper()
	tries := [][]string{{"list", "-m", "-json", module}, {"mod", "download", "-json", module}}
	if version != "" {
		tries = [][]string{{"mod", "download", "-json", module + "@" + version}}
	}
	for _, args := range tries {
		out, err := exec.Command("go", args...).Output()
		if err != nil {
			t.Fatalf("go %s: %v", strings.Join(args, " "), err)
		}
		var m struct{ Dir string }
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("reading the output of go %s: %v", strings.Join(args, " "), err)
		}
		if m.Dir != "" {
			return m.Dir
		}
	}
	t.Fatalf("module %s has no folder in the module cache", module)
	return ""
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
