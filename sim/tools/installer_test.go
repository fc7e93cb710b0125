package tools

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// recorder is a Runner that records the go commands, checks that pinned
// builds run in a folder holding the pinned module, writes the binary where
// go would, and lets 90 s of build time pass.
type recorder struct {
	t     *testing.T
	clock *clocktesting.FakeClock
	cmds  []Command
	fail  string // tool name whose build fails
}

func (r *recorder) Run(_ context.Context, c Command, out io.Writer) error {
	r.cmds = append(r.cmds, c)
	r.clock.Step(90 * time.Second)
	var target string
	if i := slices.Index(c.Args, "-o"); i >= 0 {
		target = c.Args[i+1]
		for _, f := range []string{"go.mod", "go.sum", "tools.go"} {
			if _, err := os.Stat(filepath.Join(c.Dir, f)); err != nil {
				r.t.Errorf("go build runs in %s, which lacks %s", c.Dir, f)
			}
		}
	} else {
		for _, e := range c.Env {
			if bin, ok := strings.CutPrefix(e, "GOBIN="); ok {
				pkg := c.Args[len(c.Args)-1]
				pkg, _, _ = strings.Cut(pkg, "@")
				target = filepath.Join(bin, filepath.Base(pkg))
			}
		}
	}
	if r.fail != "" && filepath.Base(target) == r.fail {
		io.WriteString(out, "compile error\n")
		return errors.New("exit status 1")
	}
	// What a build's --version reports: kwok's pinned version, and
	// kueue-sim's builds of kube-scheduler and kube-controller-manager.
	return os.WriteFile(target, []byte("#!/bin/sh\necho built v0.8.0 v1.35.4+"+assets.Build+"\n"), 0o755)
}

func newTestInstaller(t *testing.T, dir string, opts ...Option) (*Installer, *recorder, *bytes.Buffer) {
	t.Helper()
	clock := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	rec := &recorder{t: t, clock: clock}
	var out bytes.Buffer
	in := New(dir, append([]Option{WithRunner(rec), WithOutput(&out), WithClock(clock),
		WithLookPath(func(string) (string, error) { return "/usr/local/go/bin/go", nil })}, opts...)...)
	return in, rec, &out
}

// The go commands are those make tools always ran: same flags, same
// version ldflags, one build per binary.
func TestInstallRunsThePinnedBuilds(t *testing.T) {
	dir := t.TempDir()
	in, rec, out := newTestInstaller(t, dir)
	sel, err := Select(nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Install(context.Background(), sel); err != nil {
		t.Fatal(err)
	}
	const k8sLD = "-s -w -X k8s.io/component-base/version.gitVersion=v1.35.4 -X k8s.io/component-base/version.gitMajor=1" +
		" -X k8s.io/component-base/version.gitMinor=35 -X k8s.io/component-base/version.gitTreeState=clean"
	const kwokLD = "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=0.8.0"
	want := []string{
		"GOWORK=off /usr/local/go/bin/go build -trimpath -ldflags -s -w -o STAGE/etcd go.etcd.io/etcd/server/v3",
		"GOWORK=off /usr/local/go/bin/go build -trimpath -ldflags " + k8sLD + " -o STAGE/kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver",
		"GOWORK=off /usr/local/go/bin/go build -trimpath -ldflags " + strings.Replace(k8sLD, "=v1.35.4", "=v1.35.4+kueue-sim.2", 1) + " -o STAGE/kube-scheduler ./kube-scheduler",
		"GOWORK=off /usr/local/go/bin/go build -trimpath -ldflags " + strings.Replace(k8sLD, "=v1.35.4", "=v1.35.4+kueue-sim.2", 1) + " -o STAGE/kube-controller-manager ./kube-controller-manager",
		"GOBIN=STAGE GOFLAGS=-buildvcs=false /usr/local/go/bin/go install -trimpath -ldflags " + kwokLD + " sigs.k8s.io/kwok/cmd/kwok@v0.8.0",
		"GOBIN=STAGE GOFLAGS=-buildvcs=false /usr/local/go/bin/go install -trimpath -ldflags " + kwokLD + " sigs.k8s.io/kwok/cmd/kwokctl@v0.8.0",
	}
	var stage string // the one build folder, beside the binaries
	if i := slices.Index(rec.cmds[0].Args, "-o"); i >= 0 {
		stage = filepath.Dir(rec.cmds[0].Args[i+1])
	}
	if !strings.HasPrefix(stage, filepath.Join(dir, ".build-")) {
		t.Fatalf("first build writes to %q, want a .build- folder in %s", stage, dir)
	}
	var got []string
	for _, c := range rec.cmds {
		got = append(got, strings.ReplaceAll(c.String(), stage, "STAGE"))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("go commands (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(stage); !os.IsNotExist(err) {
		t.Errorf("build folder %s left behind", stage)
	}
	for _, tool := range sel {
		if !assets.IsExecutable(filepath.Join(dir, tool.Name)) {
			t.Errorf("%s not installed in %s", tool.Name, dir)
		}
	}
	for _, line := range []string{
		"building etcd, kube-apiserver, kube-scheduler, kube-controller-manager, kwok and kwokctl from source with /usr/local/go/bin/go into " + dir + "\n",
		"the first build takes minutes",
		">> kube-apiserver v1.35.4 (k8s.io/kubernetes/cmd/kube-apiserver)\n   kube-apiserver built in 1m30s\n",
		">> etcd v3.6.16 (go.etcd.io/etcd/server/v3)\n   etcd built in 1m30s\n",
		"ready in " + dir + " (9m0s)\n",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}
}

func TestInstallKeepsWhatIsPresent(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{assets.Etcd: 0o755, assets.APIServer: 0o755, assets.Scheduler: 0o644} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	in, rec, out := newTestInstaller(t, dir)
	sel, _ := Select(nil, false)
	if err := in.Install(context.Background(), sel); err != nil {
		t.Fatal(err)
	}
	var built []string
	for _, c := range rec.cmds {
		built = append(built, filepath.Base(c.Args[len(c.Args)-1]))
	}
	// (a kube-scheduler or kube-controller-manager that is not kueue-sim's
	// build would be rebuilt too: TestStatusOfOwnBuildsChecksTheBuild)
	if diff := cmp.Diff([]string{assets.Scheduler, assets.ControllerManager}, built); diff != "" {
		t.Errorf("built (-want +got):\n%s", diff)
	}

	rec.cmds = nil
	out.Reset()
	if err := in.Install(context.Background(), sel); err != nil {
		t.Fatal(err)
	}
	if len(rec.cmds) != 0 || !strings.Contains(out.String(), "nothing to build") {
		t.Errorf("second install ran %v; output %q", rec.cmds, out)
	}
}

func TestInstallWithoutGoSaysWhatToInstall(t *testing.T) {
	in, rec, _ := newTestInstaller(t, t.TempDir(), WithLookPath(func(string) (string, error) {
		return "", &exec.Error{Name: "go", Err: exec.ErrNotFound}
	}))
	sel, _ := Select([]string{assets.Etcd}, false)
	err := in.Install(context.Background(), sel)
	if !IsNoGo(err) {
		t.Fatalf("Install() = %v, want a NoGoError", err)
	}
	for _, want := range []string{"etcd", "Go toolchain", "no `go` on PATH", "install Go 1.26.0 or newer", "https://go.dev/dl/", assets.EnvAssets} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if len(rec.cmds) > 0 {
		t.Errorf("ran %v without go", rec.cmds)
	}
}

func TestInstallFailureNamesTheBinaryAndInstallsNothing(t *testing.T) {
	dir := t.TempDir()
	in, rec, out := newTestInstaller(t, dir)
	rec.fail = assets.APIServer
	sel, _ := Select(nil, false)
	err := in.Install(context.Background(), sel)
	if err == nil || !strings.Contains(err.Error(), "building kube-apiserver v1.35.4") {
		t.Fatalf("Install() = %v, want an error naming kube-apiserver", err)
	}
	if !strings.Contains(out.String(), "compile error") {
		t.Errorf("go's output is not shown:\n%s", out)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if diff := cmp.Diff([]string{assets.Etcd}, left); diff != "" {
		t.Errorf("binary folder after a failed build (-want +got):\n%s", diff)
	}
}

func TestDefaultFolder(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		want     string
		external bool
	}{
		{"the user cache", map[string]string{"XDG_CACHE_HOME": "/c"}, "/c/kueue-sim/k8s-v1.35.4", false},
		{"KUEUESIM_BIN_DIR", map[string]string{"XDG_CACHE_HOME": "/c", assets.EnvBinDir: "/bins"}, "/bins", false},
		{"KUBEBUILDER_ASSETS wins", map[string]string{assets.EnvBinDir: "/bins", assets.EnvAssets: "/envtest"}, "/envtest", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(assets.EnvAssets, "")
			t.Setenv(assets.EnvBinDir, "")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			in, err := Default()
			if err != nil {
				t.Fatal(err)
			}
			if in.Dir() != tc.want || in.External() != tc.external {
				t.Errorf("Default() = %s (external %v), want %s (%v)", in.Dir(), in.External(), tc.want, tc.external)
			}
		})
	}
}

func TestInstallBuildsNothingIntoKubebuilderAssets(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(assets.EnvAssets, dir)
	var out bytes.Buffer
	ran := false
	in, err := Default(WithOutput(&out), WithRunner(RunnerFunc(func(context.Context, Command, io.Writer) error {
		ran = true
		return nil
	})))
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := Select(nil, true)
	if err := in.Install(context.Background(), sel); err != nil {
		t.Fatal(err)
	}
	if ran || !strings.Contains(out.String(), "KUBEBUILDER_ASSETS="+dir+" is set: using the binaries there, building nothing") {
		t.Errorf("ran a build: %v; output %q", ran, out.String())
	}
}

// kwok and kwokctl count only at their pinned version, as make kwok did.
func TestStatusOfKwokChecksItsVersion(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		present      bool
		note         string
	}{
		{"pinned version", "echo 'kwok version v0.8.0 (go1.26)'", true, ""},
		{"other version", "echo 'kwok version v0.7.0'", false, "reports v0.7.0"},
		{"no version", "exit 1", false, "reports no version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "kwok"), []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			sel, _ := Select([]string{"kwok", "etcd"}, false)
			st := New(dir).Status(context.Background(), sel)
			if st[1].Name != "kwok" || st[1].Present != tc.present || st[1].Note != tc.note {
				t.Errorf("kwok status = %+v, want present %v, note %q", st[1], tc.present, tc.note)
			}
			if st[0].Present || st[0].Path != filepath.Join(dir, "etcd") {
				t.Errorf("etcd status = %+v, want missing at %s", st[0], filepath.Join(dir, "etcd"))
			}
		})
	}
}

// kube-scheduler and kube-controller-manager count only as kueue-sim's
// builds (the flag and the kubeconfig entry the control plane starts them
// with): stock ones, or an earlier kueue-sim build, are rebuilt.
func TestStatusOfOwnBuildsChecksTheBuild(t *testing.T) {
	for _, name := range assets.Built {
		for _, tc := range []struct {
			name, script string
			present      bool
			note         string
		}{
			{"kueue-sim's build", "echo 'Kubernetes v1.35.4+kueue-sim.2'", true, ""},
			{"an earlier kueue-sim build", "echo 'Kubernetes v1.35.4+kueue-sim.1'", false, "not kueue-sim's build (reports Kubernetes v1.35.4+kueue-sim.1)"},
			{"upstream build", "echo 'Kubernetes v1.35.4'", false, "not kueue-sim's build (reports Kubernetes v1.35.4)"},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				sel, _ := Select([]string{name}, false)
				st := New(dir).Status(context.Background(), sel)
				if st[0].Present != tc.present || st[0].Note != tc.note {
					t.Errorf("status = %+v, want present %v, note %q", st[0], tc.present, tc.note)
				}
			})
		}
	}
}

func TestSelect(t *testing.T) {
	for _, tc := range []struct {
		name    string
		names   []string
		kwok    bool
		want    []string
		wantErr string
	}{
		{"default: the control plane", nil, false, []string{"etcd", "kube-apiserver", "kube-scheduler", "kube-controller-manager"}, ""},
		{"--kwok adds kwok", nil, true, []string{"etcd", "kube-apiserver", "kube-scheduler", "kube-controller-manager", "kwok", "kwokctl"}, ""},
		{"by name, in install order", []string{"kwokctl", "etcd"}, false, []string{"etcd", "kwokctl"}, ""},
		{"unknown", []string{"kubectl"}, false, nil, `no tool "kubectl": the tools are etcd, kube-apiserver`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := Select(tc.names, tc.kwok)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Select() error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, nameList(sel)); diff != "" {
				t.Errorf("Select() (-want +got):\n%s", diff)
			}
		})
	}
}
