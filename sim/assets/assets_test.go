package assets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/config"
	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

func TestFindBinariesNamesWhatIsMissingAndHowToGetIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  string
		want []string
	}{
		{"the binary cache", EnvBinDir, []string{FromCache, "sim tools install", "--install-tools", "make tools", EnvAssets}},
		{"KUBEBUILDER_ASSETS", EnvAssets, []string{EnvAssets, "sim tools install", "unset"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, Etcd), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, APIServer), []byte("not executable"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv(EnvAssets, "")
			t.Setenv(tc.env, dir)
			_, err := FindBinaries()
			if !IsMissingBinaries(err) {
				t.Fatalf("FindBinaries() error = %v, want a MissingBinariesError", err)
			}
			msg := err.Error()
			for _, want := range append([]string{dir, APIServer, Scheduler, ControllerManager}, tc.want...) {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
			var m *MissingBinariesError
			errors.As(err, &m)
			if diff := cmp.Diff([]string{APIServer, Scheduler, ControllerManager}, m.Missing); diff != "" {
				t.Errorf("missing binaries (-want +got):\n%s", diff)
			}
		})
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

// A build serves the schema of the Kueue it runs, and only that: an older
// release's CRD would prune the fields a newer Kueue writes.
func TestBuildEmbedsTheManifestsOfItsKueueReleaseOnly(t *testing.T) {
	for _, r := range kueuerelease.Supported {
		_, err := config.Kueue(r)
		if r == kueuerelease.Compiled() && err != nil {
			t.Errorf("config.Kueue(%s), the release this build runs: %v", r, err)
		}
		if r != kueuerelease.Compiled() && err == nil {
			t.Errorf("config.Kueue(%s) is embedded in the build of Kueue %s", r, kueuerelease.Compiled())
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
