package tools

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// simRecorder is a Runner that records the go commands of sim builds and
// writes the sim where go build -o would.
type simRecorder struct {
	clock *clocktesting.FakeClock
	cmds  []Command
	fail  bool
}

func (r *simRecorder) Run(_ context.Context, c Command, out io.Writer) error {
	r.cmds = append(r.cmds, c)
	r.clock.Step(3 * time.Minute)
	if r.fail {
		io.WriteString(out, "compile error\n")
		return errors.New("exit status 1")
	}
	i := slices.Index(c.Args, "-o")
	if i < 0 {
		return errors.New("no -o")
	}
	return os.WriteFile(c.Args[i+1], []byte("#!/bin/sh\n"), 0o755)
}

// sourceTree makes a kueue-sim source tree with the module files of
// releases.
func sourceTree(t *testing.T, releases ...string) string {
	t.Helper()
	src := t.TempDir()
	write := func(name, body string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module "+Module+"\n\ngo 1.25.7\n")
	for _, r := range releases {
		write(filepath.Join("hack", "kueue", r+".mod"), "module "+Module+"\n\ngo 1.26.0\n")
	}
	return src
}

func newTestKueueBuilder(t *testing.T, compiled string, opts ...Option) (*KueueBuilder, *simRecorder, *bytes.Buffer) {
	t.Helper()
	clock := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	rec := &simRecorder{clock: clock}
	var out bytes.Buffer
	b := NewKueueBuilder(t.TempDir(), compiled, append([]Option{
		WithRunner(rec), WithOutput(&out), WithClock(clock), WithSelf(filepath.Join(t.TempDir(), "sim")),
		WithLookPath(func(string) (string, error) { return "/usr/local/go/bin/go", nil }),
	}, opts...)...)
	return b, rec, &out
}

// The sim of another release is the Makefile's kueue-releases build: its
// module file, its build tag and this sim's version, built in a folder in
// the binary folder and renamed into place.
func TestKueueBuilderBuildsAsTheMakefile(t *testing.T) {
	src := sourceTree(t, "v0.18.2")
	b, rec, out := newTestKueueBuilder(t, kueuerelease.Default, WithSource(src), WithSimVersion("v1.2.3"))
	s, err := b.Install(context.Background(), "v0.18")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(b.Dir(), "sim-kueue-v0.18.2")
	if want := (KueueSim{Release: "v0.18.2", Path: path, Present: true}); s != want {
		t.Errorf("Install = %+v, want %+v", s, want)
	}
	if len(rec.cmds) != 1 {
		t.Fatalf("%d go commands, want 1: %v", len(rec.cmds), rec.cmds)
	}
	c := rec.cmds[0]
	stage := filepath.Dir(c.Args[slices.Index(c.Args, "-o")+1])
	if !strings.HasPrefix(stage, filepath.Join(b.Dir(), ".build-")) {
		t.Errorf("the build writes to %s, want a .build- folder in %s", stage, b.Dir())
	}
	want := "GOWORK=off /usr/local/go/bin/go build -mod=readonly -modfile=hack/kueue/v0.18.2.mod -tags kueue_v0_18 " +
		"-ldflags -X main.version=v1.2.3 -o STAGE/sim-kueue-v0.18.2 ./cmd/sim"
	if got := strings.ReplaceAll(c.String(), stage, "STAGE"); got != want {
		t.Errorf("go command:\n got %s\nwant %s", got, want)
	}
	if c.Dir != src {
		t.Errorf("go runs in %s, want the source tree %s", c.Dir, src)
	}
	if !assets.IsExecutable(path) {
		t.Errorf("%s not installed", path)
	}
	if _, err := os.Stat(stage); !os.IsNotExist(err) {
		t.Errorf("build folder %s left behind", stage)
	}
	for _, line := range []string{
		"building the sim of Kueue v0.18.2 from " + src + " with /usr/local/go/bin/go into " + b.Dir() + "\n",
		">> sim-kueue-v0.18.2 (hack/kueue/v0.18.2.mod)\n   sim-kueue-v0.18.2 built in 3m0s: " + path + "\n",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}

	// Built once: a second install keeps it.
	out.Reset()
	if _, err := b.Install(context.Background(), "v0.18.2"); err != nil || len(rec.cmds) != 1 {
		t.Errorf("a second install: %v, %d go commands; want none more", err, len(rec.cmds))
	}
	if want := "the sim of Kueue v0.18.2 is present (" + path + "): nothing to build\n"; out.String() != want {
		t.Errorf("a second install says %q, want %q", out, want)
	}
}

// The Makefile builds what KueueBuilder builds: the same go build, module
// file, tag and version ldflags.
func TestKueueBuilderAgreesWithTheMakefile(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	mk := string(data)
	for _, want := range []string{
		"LDFLAGS := -X main.version=",
		"kueue_tag = kueue_$(subst .,_,$(basename $(1)))",
		`$(GO) build -modfile=hack/kueue/$(r).mod -tags $(call kueue_tag,$(r)) -ldflags "$(LDFLAGS)" -o bin/sim-kueue-$(r) ./cmd/sim`,
	} {
		if !strings.Contains(mk, want) {
			t.Errorf("the Makefile lacks %q: change kueueSimCommand with it", want)
		}
	}
	for _, r := range kueuerelease.Supported {
		if r == kueuerelease.Default {
			continue
		}
		minor := strings.TrimPrefix(kueuerelease.Minor(r), "v0.")
		file := filepath.Join("..", "..", "kueuerelease", "compiled_v0"+minor+".go")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if want := "//go:build " + KueueTag(r) + "\n"; !strings.HasPrefix(string(data), want) {
			t.Errorf("%s does not start with %q", file, want)
		}
	}
}

// This sim's own release needs no build; go.mod's release from another
// release's sim is built with go.mod, without module file or tag.
func TestKueueBuilderDefaultRelease(t *testing.T) {
	src := sourceTree(t)
	b, rec, out := newTestKueueBuilder(t, kueuerelease.Default, WithSource(src))
	s, err := b.Install(context.Background(), kueuerelease.Default)
	if err != nil || !s.Self || len(rec.cmds) != 0 {
		t.Errorf("Install(%s) in its own sim = %+v, %v, %d go commands; want this sim, no build", kueuerelease.Default, s, err, len(rec.cmds))
	}
	if !strings.Contains(out.String(), "Kueue "+kueuerelease.Default+" is this sim") {
		t.Errorf("output lacks that it is this sim:\n%s", out)
	}

	b, rec, _ = newTestKueueBuilder(t, "v0.17.1", WithSource(src))
	if _, err := b.Install(context.Background(), kueuerelease.Default); err != nil {
		t.Fatal(err)
	}
	want := "GOWORK=off /usr/local/go/bin/go build -mod=readonly -o STAGE/sim-kueue-" + kueuerelease.Default + " ./cmd/sim"
	c := rec.cmds[0]
	stage := filepath.Dir(c.Args[slices.Index(c.Args, "-o")+1])
	if got := strings.ReplaceAll(c.String(), stage, "STAGE"); got != want {
		t.Errorf("go command:\n got %s\nwant %s", got, want)
	}
	if !assets.IsExecutable(filepath.Join(b.Dir(), "sim-kueue-"+kueuerelease.Default)) {
		t.Errorf("sim-kueue-%s not installed", kueuerelease.Default)
	}
}

// A sim built beside this one (make kueue-releases) counts: nothing is
// built.
func TestKueueBuilderKeepsASimBesideThisOne(t *testing.T) {
	self := filepath.Join(t.TempDir(), "sim")
	beside := filepath.Join(filepath.Dir(self), "sim-kueue-v0.16.2")
	if err := os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, rec, _ := newTestKueueBuilder(t, kueuerelease.Default, WithSelf(self), WithSource(sourceTree(t)))
	s, err := b.Install(context.Background(), "v0.16.2")
	if err != nil || s.Path != beside || !s.Present || len(rec.cmds) != 0 {
		t.Errorf("Install(v0.16.2) = %+v, %v, %d go commands; want %s, no build", s, err, len(rec.cmds), beside)
	}
	var got []string
	for _, s := range b.StatusAll() {
		got = append(got, s.Release+" "+strings.ReplaceAll(strings.ReplaceAll(s.Path, filepath.Dir(self), "SELF"), b.Dir(), "BIN")+" "+
			map[bool]string{true: "present", false: "missing"}[s.Present]+map[bool]string{true: " self"}[s.Self])
	}
	want := []string{
		"v0.16.2 SELF/sim-kueue-v0.16.2 present",
		"v0.17.1 BIN/sim-kueue-v0.17.1 missing",
		"v0.18.2 BIN/sim-kueue-v0.18.2 missing",
		kueuerelease.Default + " SELF/sim present self",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StatusAll (-want +got):\n%s", diff)
	}
}

// A failed build names the release and leaves nothing in the binary
// folder.
func TestKueueBuilderFailureInstallsNothing(t *testing.T) {
	b, rec, out := newTestKueueBuilder(t, kueuerelease.Default, WithSource(sourceTree(t, "v0.17.1")))
	rec.fail = true
	_, err := b.Install(context.Background(), "v0.17.1")
	if err == nil || !strings.Contains(err.Error(), "building the sim of Kueue v0.17.1: exit status 1") {
		t.Errorf("Install = %v; want the failed build named", err)
	}
	if !strings.Contains(out.String(), "compile error") {
		t.Errorf("go's output not passed on:\n%s", out)
	}
	if entries, _ := os.ReadDir(b.Dir()); len(entries) != 0 {
		t.Errorf("the binary folder holds %v after a failed build", entries)
	}
}

// Bad input is refused before anything is built: a release kueue-sim does
// not build against, a source tree that is none or lacks the release's
// module file. Without go, the error names the Go the release needs.
func TestKueueBuilderRefusals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		release string
		opts    []Option
		env     string
		is      error
		want    string
	}{{
		name: "unsupported", release: "v0.15", is: assets.ErrUnsupportedKueue,
		want: "unsupported Kueue release v0.15: kueue-sim builds Kueue " + strings.Join(kueuerelease.Supported, ", "),
	}, {
		name: "not a release", release: "latest", is: assets.ErrUnsupportedKueue,
	}, {
		name: "--source not a tree", release: "v0.17.1", opts: []Option{WithSource("/")}, is: ErrSource,
		want: "/ (--source) holds no go.mod of github.com/kueue-sim/kueue-sim",
	}, {
		name: "KUEUESIM_SOURCE not a tree", release: "v0.17.1", env: "/", is: ErrSource,
		want: "/ (KUEUESIM_SOURCE) holds no go.mod",
	}, {
		name: "a tree without the module file", release: "v0.17.1", opts: []Option{WithSource(sourceTree(t, "v0.18.2"))}, is: ErrSource,
		want: "has no hack/kueue/v0.17.1.mod",
	}, {
		name: "no go", release: "v0.17", is: nil,
		opts: []Option{WithSource(sourceTree(t, "v0.17.1")), WithLookPath(func(string) (string, error) { return "", errors.New("not found") })},
		want: "building the sim of Kueue v0.17.1 from source needs the Go toolchain, and there is no `go` on PATH: install Go 1.26.0 or newer",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvSource, tc.env)
			b, rec, _ := newTestKueueBuilder(t, kueuerelease.Default, tc.opts...)
			_, err := b.Install(context.Background(), tc.release)
			if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Install(%s) = %v; want %v naming %q", tc.release, err, tc.is, tc.want)
			}
			if len(rec.cmds) != 0 {
				t.Errorf("%d go commands ran", len(rec.cmds))
			}
		})
	}
}

// The source tree: --source, else KUEUESIM_SOURCE, else the tree this
// binary was built from, else the one holding the current folder; the
// error of none names the fix.
func TestKueueBuilderSource(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	given, env := sourceTree(t), sourceTree(t)
	t.Setenv(EnvSource, env)
	b := NewKueueBuilder(t.TempDir(), kueuerelease.Default, WithSource(given))
	if got, err := b.Source(); got != given || err != nil {
		t.Errorf("Source with --source = %q, %v; want %s", got, err, given)
	}
	b = NewKueueBuilder(t.TempDir(), kueuerelease.Default)
	if got, err := b.Source(); got != env || err != nil {
		t.Errorf("Source with KUEUESIM_SOURCE = %q, %v; want %s", got, err, env)
	}
	t.Setenv(EnvSource, "")
	// A test binary is built without -trimpath: it knows its tree.
	if got := builtFrom(); got != root {
		t.Errorf("builtFrom() = %q, want %s", got, root)
	}
	if got, err := b.Source(); got != root || err != nil {
		t.Errorf("Source = %q, %v; want the tree it was built from, %s", got, err, root)
	}

	sourceFromBuild = func() string { return "" } // a -trimpath build
	t.Cleanup(func() { sourceFromBuild = builtFrom })
	t.Chdir(filepath.Join(root, "sim", "tools"))
	if got, err := b.Source(); got != root || err != nil {
		t.Errorf("Source in %s = %q, %v; want the tree holding it, %s", filepath.Join(root, "sim", "tools"), got, err, root)
	}
	t.Chdir(t.TempDir())
	_, err = b.Source()
	if !errors.Is(err, ErrNoSource) || !regexp.MustCompile(`pass --source DIR or set KUEUESIM_SOURCE=DIR to a kueue-sim clone`).MatchString(err.Error()) {
		t.Errorf("Source with no tree = %v; want ErrNoSource naming --source and KUEUESIM_SOURCE", err)
	}
}

func TestIsModuleRoot(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]bool{
		"module " + Module + "\n":                         true,
		"// kueue-sim\nmodule \"" + Module + "\" // it\n": true,
		"module " + Module + "/sub\n":                     false,
		"module example.com/other\n":                      false,
		"go 1.26\n":                                       false,
	} {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := isModuleRoot(dir); got != want {
			t.Errorf("isModuleRoot(%q) = %v, want %v", body, got, want)
		}
	}
}
