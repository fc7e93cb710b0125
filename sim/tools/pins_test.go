package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/kwok"
)

// The version sim/assets looks for (it names the cache folder) and the one
// the pinned module builds must agree.
func TestPinnedVersions(t *testing.T) {
	if kubernetesVersion != assets.KubernetesVersion {
		t.Errorf("pins/k8sbin builds k8s.io/kubernetes %s, assets.KubernetesVersion is %s", kubernetesVersion, assets.KubernetesVersion)
	}
	if !strings.HasPrefix(etcdVersion, "v3.") {
		t.Errorf("pinned etcd version %q, want v3.x", etcdVersion)
	}
	var got []string
	for _, tool := range All() {
		got = append(got, tool.Name)
	}
	want := append(append([]string{}, assets.All...), kwok.Kwok, kwok.Kwokctl)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if v := GoVersion(); v != "1.26.0" {
		t.Errorf("GoVersion() = %s, want the highest go directive of the pins, 1.26.0", v)
	}
}

// The pinned modules must stay complete modules (go.mod, go.sum, tools.go)
// with nothing that makes them part of kueue-sim's module.
func TestWritePinMakesAModule(t *testing.T) {
	for _, pin := range []string{pinKubernetes, pinEtcd} {
		dir := t.TempDir()
		if err := writePin(dir, pin); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"go.mod", "go.sum", "tools.go"} {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil || len(data) == 0 {
				t.Errorf("%s: %s is empty or missing (%v)", pin, f, err)
			}
		}
		mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
		if !strings.Contains(string(mod), "\nmodule kueue-sim/pins/"+pin+"\n") {
			t.Errorf("%s: go.mod does not declare module kueue-sim/pins/%s", pin, pin)
		}
		tools, _ := os.ReadFile(filepath.Join(dir, "tools.go"))
		if !strings.HasPrefix(string(tools), "//go:build tools\n") {
			t.Errorf("%s: tools.go lacks its build tag", pin)
		}
	}
}

// kueue-sim's builds register the kubeconfig auth-provider sim/cluster
// names to keep their Events out of the API server: each of their mains
// imports it, and the pinned module gets its source (not its tests).
func TestOwnBuildsKnowTheNoAPIEventsProvider(t *testing.T) {
	dir := t.TempDir()
	if err := writePin(dir, pinKubernetes); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "noapievents", "noapievents.go")); err != nil {
		t.Errorf("the pinned module lacks the plugin: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "noapievents", "noapievents_test.go")); !os.IsNotExist(err) {
		t.Errorf("the pinned module got the plugin's tests (%v): they need kueue-sim's module", err)
	}
	for _, name := range assets.Built {
		main, err := os.ReadFile(filepath.Join(dir, name, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(main), "\t_ \"kueue-sim/pins/k8sbin/noapievents\"\n") {
			t.Errorf("pins/k8sbin/%s/main.go.txt does not import kueue-sim/pins/k8sbin/noapievents", name)
		}
	}
}

func TestNewerGo(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"1.26.0", "1.25.7", true},
		{"1.25.0", "1.26.0", false},
		{"1.10", "1.9", true},
		{"1.26", "1.26.0", false},
	} {
		if got := newerGo(tc.a, tc.b); got != tc.want {
			t.Errorf("newerGo(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
