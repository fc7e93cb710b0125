package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/tools"
)

// None of these starts a control plane or builds anything: either the
// binaries are found missing before anything starts, or there is no go.
func TestToolsCommands(t *testing.T) {
	bins := t.TempDir()
	for _, name := range []string{assets.Etcd, "sim-kueue-v0.17.1"} {
		if err := os.WriteFile(filepath.Join(bins, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
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
			"kwok                     v0.8.0   missing: sim tools install --kwok ",
			" " + filepath.Join(bins, "kwok") + "\n",
			"sim-kueue-v0.16.2        v0.16.2  missing: sim tools install kueue@v0.16.2  " + filepath.Join(bins, "sim-kueue-v0.16.2") + "\n",
			"v0.19.2  present (this sim)",
			"sim-kueue-v0.17.1        v0.17.1  present ",
			" " + filepath.Join(bins, "sim-kueue-v0.17.1") + "\n",
		},
	}, {
		name:     "install: an unknown tool",
		args:     []string{"tools", "install", "kubectl"},
		wantCode: 2,
		want:     []string{`no tool "kubectl"`},
	}, {
		name:     "install: kueue without a release",
		args:     []string{"tools", "install", "kueue"},
		wantCode: 2,
		want:     []string{`no tool "kueue"`, "kueue@RELEASE builds the sim of a Kueue release (kueue@v0.16.2)"},
	}, {
		name:     "install: an unsupported Kueue release, before anything is built",
		args:     []string{"tools", "install", "etcd", "kueue@v0.15"},
		env:      map[string]string{"PATH": noGo},
		wantCode: 2,
		want:     []string{"unsupported Kueue release v0.15: kueue-sim builds Kueue v0.16.2, v0.17.1, v0.18.2, v0.19.2"},
	}, {
		name: "install: the sim of this sim's release is this sim",
		args: []string{"tools", "install", "kueue@v0.19"},
		env:  map[string]string{"PATH": noGo},
		want: []string{"Kueue v0.19.2 is this sim (", "): nothing to build\n"},
	}, {
		name: "install: a sim already built is kept, into KUBEBUILDER_ASSETS too",
		args: []string{"tools", "install", "kueue@v0.17.1"},
		env:  map[string]string{assets.EnvAssets: t.TempDir(), "PATH": noGo},
		want: []string{"the sim of Kueue v0.17.1 is present (" + filepath.Join(bins, "sim-kueue-v0.17.1") + "): nothing to build\n"},
	}, {
		name:     "install: a source tree that is none",
		args:     []string{"tools", "install", "kueue@v0.18.2", "--source", t.TempDir()},
		wantCode: 2,
		want:     []string{"(--source) holds no go.mod of github.com/kueue-sim/kueue-sim"},
	}, {
		name:     "install: KUEUESIM_SOURCE is --source",
		args:     []string{"tools", "install", "kueue@v0.18.2"},
		env:      map[string]string{"KUEUESIM_SOURCE": "/"},
		wantCode: 2,
		want:     []string{"/ (--source) holds no go.mod"},
	}, {
		name:     "install: a Kueue release without go",
		args:     []string{"tools", "install", "kueue@v0.18.2"},
		env:      map[string]string{"PATH": noGo},
		wantCode: 1,
		want:     []string{"building the sim of Kueue v0.18.2 from source needs the Go toolchain", "install Go 1.26"},
	}, {
		name: "version: every Kueue release, and where its sim is",
		args: []string{"version"},
		want: []string{"Kueue releases           v0.16.2 (not built: sim tools install kueue@v0.16.2), v0.17.1 (built), v0.18.2 (not built: sim tools install kueue@v0.18.2), v0.19.2 (this sim)\n"},
	}, {
		name:     "run --kueue of a release not built says how to build it",
		args:     []string{"run", filepath.Join("..", "..", "scenarios", "quickstart.yaml"), "--kueue", "v0.18", "--run-root", t.TempDir()},
		wantCode: 2,
		want:     []string{"the sim of Kueue v0.18.2 is not built (no ", filepath.Join(bins, "sim-kueue-v0.18.2"), "sim tools install kueue@v0.18.2", "--install-tools", "make kueue-releases"},
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
		name:     "upgrade to a release not built says how to build it",
		args:     []string{"upgrade", filepath.Join("..", "..", "scenarios", "quickstart.yaml"), "--from", "v0.19.2", "--to", "v0.18", "--report", t.TempDir()},
		wantCode: 2,
		want:     []string{"--to: the sim of Kueue v0.18.2 is not built", "sim tools install kueue@v0.18.2", "--install-tools"},
	}, {
		name:     "upgrade --install-tools builds first (here: fails for want of go)",
		args:     []string{"upgrade", filepath.Join("..", "..", "scenarios", "quickstart.yaml"), "--from", "v0.19.2", "--to", "v0.18", "--report", t.TempDir(), "--install-tools"},
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
			t.Setenv(tools.EnvSource, "")
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

// goRecorder is a go that records its commands and writes what go build -o
// would.
type goRecorder struct{ cmds []tools.Command }

func (g *goRecorder) Run(_ context.Context, c tools.Command, _ io.Writer) error {
	g.cmds = append(g.cmds, c)
	i := slices.Index(c.Args, "-o")
	if i < 0 {
		return errors.New("no -o")
	}
	return os.WriteFile(c.Args[i+1], []byte("#!/bin/sh\n"), 0o755)
}

// fakeGo makes the sims of other Kueue releases build with g, and returns
// the sims this one hands over to, which it does not run.
func fakeGo(t *testing.T, g *goRecorder) *[]string {
	t.Helper()
	var execs []string
	kueueBuilderOptions = []tools.Option{tools.WithRunner(g),
		tools.WithLookPath(func(string) (string, error) { return "/usr/local/go/bin/go", nil })}
	execSim = func(path string, _ []string, _ []string) error {
		execs = append(execs, path)
		return errors.New("exec stopped by the test")
	}
	t.Cleanup(func() { kueueBuilderOptions, execSim = nil, syscall.Exec })
	return &execs
}

// sim tools install kueue@RELEASE builds the sim of that release into the
// binary folder, as make kueue-releases does, beside control-plane tools
// named with it; sim tools list and sim version then show it built.
func TestToolsInstallKueue(t *testing.T) {
	bins := t.TempDir()
	if err := os.WriteFile(filepath.Join(bins, assets.Etcd), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(assets.EnvAssets, "")
	t.Setenv(assets.EnvBinDir, bins)
	t.Setenv(tools.EnvSource, "")
	t.Setenv("PATH", t.TempDir()) // no control-plane build: no go for it
	g := &goRecorder{}
	fakeGo(t, g)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}

	code, out := simInProcess(t, "tools", "install", "etcd", "kueue@v0.18", "kueue@v0.17.1")
	if code != 0 {
		t.Fatalf("exit code %d:\n%s", code, out)
	}
	for _, want := range []string{
		"etcd present in " + bins + ": nothing to build\n",
		"building the sim of Kueue v0.18.2 from " + root + " with /usr/local/go/bin/go into " + bins + "\n",
		"sim-kueue-v0.17.1 built in ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var got []string
	for _, c := range g.cmds {
		if c.Dir != root {
			t.Errorf("go runs in %s, want the tree this sim was built from, %s", c.Dir, root)
		}
		i := slices.Index(c.Args, "-o")
		got = append(got, strings.Join(c.Args[1:i], " ")+" "+filepath.Base(c.Args[i+1]))
	}
	want := []string{
		"build -mod=readonly -modfile=hack/kueue/v0.18.2.mod -tags kueue_v0_18 sim-kueue-v0.18.2",
		"build -mod=readonly -modfile=hack/kueue/v0.17.1.mod -tags kueue_v0_17 sim-kueue-v0.17.1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("go commands (-want +got):\n%s", diff)
	}

	_, out = simInProcess(t, "tools", "list")
	for _, want := range []string{
		"sim-kueue-v0.16.2        v0.16.2  missing: sim tools install kueue@v0.16.2  " + filepath.Join(bins, "sim-kueue-v0.16.2") + "\n",
		"sim-kueue-v0.18.2        v0.18.2  present ",
		" " + filepath.Join(bins, "sim-kueue-v0.18.2") + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sim tools list lacks %q:\n%s", want, out)
		}
	}
	_, out = simInProcess(t, "version")
	if want := "v0.17.1 (built), v0.18.2 (built), v0.19.2 (this sim)\n"; !strings.Contains(out, want) {
		t.Errorf("sim version lacks %q:\n%s", want, out)
	}
	if _, out = simInProcess(t, "tools", "install", "kueue@v0.18.2"); len(g.cmds) != 2 || !strings.Contains(out, "is present") {
		t.Errorf("a second install ran %d go commands (want none more):\n%s", len(g.cmds)-2, out)
	}
}

// sim run --install-tools builds the missing sim of the Kueue release the
// run asks for (--kueue, or the scenario's cluster.kueueVersion), then hands
// the run over to it.
func TestRunInstallToolsBuildsTheKueueRelease(t *testing.T) {
	bins := t.TempDir()
	t.Setenv(assets.EnvAssets, "")
	t.Setenv(assets.EnvBinDir, bins)
	t.Setenv(tools.EnvSource, "")
	g := &goRecorder{}
	execs := fakeGo(t, g)
	scenario := filepath.Join("..", "..", "scenarios", "quickstart.yaml")

	code, out := simInProcess(t, "run", scenario, "--kueue", "v0.17", "--install-tools", "--run-root", t.TempDir())
	sim := filepath.Join(bins, "sim-kueue-v0.17.1")
	if code != 1 || !strings.Contains(out, "running "+sim+": exec stopped by the test") {
		t.Errorf("exit code %d, want 1 and the hand-over to %s:\n%s", code, sim, out)
	}
	if len(g.cmds) != 1 || !slices.Contains(g.cmds[0].Args, "-modfile=hack/kueue/v0.17.1.mod") {
		t.Errorf("go commands %v, want the build of v0.17.1", g.cmds)
	}
	if !assets.IsExecutable(sim) || !strings.Contains(out, "building the sim of Kueue v0.17.1") {
		t.Errorf("%s not built:\n%s", sim, out)
	}

	pinned := writeVariant(t, scenario, "cluster:\n", "cluster:\n  kueueVersion: v0.16.2\n")
	simInProcess(t, "run", pinned, "--install-tools", "--run-root", t.TempDir())
	// Built: the next run hands over without building.
	simInProcess(t, "run", scenario, "--kueue", "v0.17.1", "--install-tools", "--run-root", t.TempDir())
	if want := []string{sim, filepath.Join(bins, "sim-kueue-v0.16.2"), sim}; !slices.Equal(*execs, want) {
		t.Errorf("handed over to %v, want %v", *execs, want)
	}
	if len(g.cmds) != 2 {
		t.Errorf("%d go commands, want 2 (v0.17.1, v0.16.2)", len(g.cmds))
	}
}
