package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// None of these starts a control plane or builds anything: either the
// binaries are found missing before anything starts, or there is no go.
func TestToolsCommands(t *testing.T) {
	bins := t.TempDir()
	if err := os.WriteFile(filepath.Join(bins, assets.Etcd), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	noGo := t.TempDir() // a PATH without go
	for _, tc := range []struct {
		name     string
		args     []string
		env      map[string]string
		wantCode int
		want     []string
	}{{
		name: "path: the binary folder",
		args: []string{"tools", "path"},
		want: []string{bins + "\n"},
	}, {
		name: "path: KUBEBUILDER_ASSETS wins",
		args: []string{"tools", "path"},
		env:  map[string]string{assets.EnvAssets: "/envtest"},
		want: []string{"/envtest\n"},
	}, {
		name: "list: each tool with version, status and path",
		args: []string{"tools", "list"},
		want: []string{
			"binary folder " + bins + " (the kueue-sim binary cache)\n",
			"etcd                     v3.6.16  present",
			"kube-apiserver           v1.35.4  missing",
			"kwok                     v0.8.0   missing: sim tools install --kwok  " + filepath.Join(bins, "kwok") + "\n",
		},
	}, {
		name:     "install: an unknown tool",
		args:     []string{"tools", "install", "kubectl"},
		wantCode: 2,
		want:     []string{`no tool "kubectl"`},
	}, {
		name: "install: nothing into KUBEBUILDER_ASSETS",
		args: []string{"tools", "install"},
		env:  map[string]string{assets.EnvAssets: bins, "PATH": noGo},
		want: []string{"KUBEBUILDER_ASSETS=" + bins + " is set: using the binaries there, building nothing\n"},
	}, {
		name:     "install: without go",
		args:     []string{"tools", "install"},
		env:      map[string]string{"PATH": noGo},
		wantCode: 1,
		want:     []string{"sim: installing the control-plane binaries: building kube-apiserver, kube-scheduler and kube-controller-manager from source needs the Go toolchain", "install Go 1.26.0 or newer"},
	}, {
		name:     "up without the binaries says how to get them",
		args:     []string{"up", "--run-root", t.TempDir()},
		wantCode: 1,
		want:     []string{"control-plane binaries missing from " + bins, "run `sim tools install`", "--install-tools"},
	}, {
		name:     "up --install-tools builds first (here: fails for want of go)",
		args:     []string{"up", "--install-tools", "--run-root", t.TempDir()},
		env:      map[string]string{"PATH": noGo},
		wantCode: 1,
		want:     []string{"needs the Go toolchain"},
	}, {
		name:     "run --install-tools builds before the control plane starts (here: fails for want of go)",
		args:     []string{"run", filepath.Join("..", "..", "scenarios", "quickstart.yaml"), "--install-tools", "--run-root", t.TempDir()},
		env:      map[string]string{"PATH": noGo},
		wantCode: 1,
		want:     []string{"scenario quickstart", "needs the Go toolchain"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(assets.EnvAssets, "")
			t.Setenv(assets.EnvBinDir, bins)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			code, out := simInProcess(t, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d; output:\n%s", code, tc.wantCode, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
