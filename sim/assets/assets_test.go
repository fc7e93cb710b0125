package assets

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The Go constant and the module that builds the binaries must agree, or
// FindBinaries looks in a folder `make tools` never fills.
func TestKubernetesVersionMatchesBuildModule(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "hack", "k8sbin", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	want := "require k8s.io/kubernetes " + KubernetesVersion + "\n"
	if !strings.Contains(string(data), want) {
		t.Errorf("hack/k8sbin/go.mod does not contain %q", want)
	}
}

func TestFindBinariesNamesWhatIsMissingAndHowToGetIt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, Etcd), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvAssets, dir)
	_, err := FindBinaries()
	if !IsMissingBinaries(err) {
		t.Fatalf("FindBinaries() error = %v, want a MissingBinariesError", err)
	}
	msg := err.Error()
	for _, want := range []string{dir, APIServer, Scheduler, ControllerManager, "make tools", EnvAssets} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
	var m *MissingBinariesError
	errors.As(err, &m)
	if diff := cmp.Diff([]string{APIServer, Scheduler, ControllerManager}, m.Missing); diff != "" {
		t.Errorf("missing binaries (-want +got):\n%s", diff)
	}
}

func TestFindBinariesHonoursKubebuilderAssets(t *testing.T) {
	dir := t.TempDir()
	for _, n := range All {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvAssets, dir)
	b, err := FindBinaries()
	if err != nil || b.Dir != dir {
		t.Fatalf("FindBinaries() = %v, %v; want %s", b, err, dir)
	}
}

func TestEmbeddedCRDsIncludeEveryRequiredOne(t *testing.T) {
	crds, err := CRDs()
	if err != nil {
		t.Fatalf("CRDs(): %v", err)
	}
	seen := map[string]int{}
	for _, c := range crds {
		seen[c.Name]++
	}
	for _, name := range RequiredCRDs {
		if seen[name] != 1 {
			t.Errorf("CRD %s embedded %d times, want once", name, seen[name])
		}
	}
}

func TestKueueWebhooksServeCorePodsWithFailurePolicyFail(t *testing.T) {
	muts, vals, err := KueueWebhooks()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range muts {
		for _, w := range m.Webhooks {
			if w.ClientConfig.Service != nil && w.ClientConfig.Service.Path != nil && *w.ClientConfig.Service.Path == "/mutate--v1-pod" {
				found = true
				if w.FailurePolicy == nil || *w.FailurePolicy != "Fail" {
					t.Errorf("pod mutating webhook failurePolicy = %v, want Fail", w.FailurePolicy)
				}
			}
		}
	}
	if !found {
		t.Errorf("Kueue's pod mutating webhook is missing from %d mutating configurations", len(muts))
	}
	if len(vals) == 0 {
		t.Error("no validating webhook configuration")
	}
}
