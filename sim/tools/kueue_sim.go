package tools

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// Module is kueue-sim's module path: a kueue-sim source tree is the
// folder of a go.mod declaring it.
const Module = "github.com/kueue-sim/kueue-sim"

// EnvSource names the kueue-sim source tree a KueueBuilder builds in.
const EnvSource = "KUEUESIM_SOURCE"

// ErrSource is wrapped by the errors about the source tree a KueueBuilder
// was given (WithSource, KUEUESIM_SOURCE): it is none, or it lacks the
// release's module file.
var ErrSource = errors.New("not a kueue-sim source tree for this release")

// ErrNoSource is wrapped by the error of a KueueBuilder that was given no
// source tree and found none.
var ErrNoSource = errors.New("no kueue-sim source tree found")

// KueueBuilder builds the sim of another Kueue release, sim-kueue-<release>,
// into a binary folder, from a kueue-sim source tree with the go toolchain,
// as the Makefile's kueue-releases does: go build with the release's module
// file (hack/kueue/<release>.mod) and build tag (kueue_v0_<minor>). Kueue and
// the libraries come through the Go module proxy (GOPROXY), as for go
// build in a clone.
type KueueBuilder struct {
	dir      string
	compiled string // the Kueue release this sim holds
	settings
}

// NewKueueBuilder returns a KueueBuilder that builds into dir, for a sim
// that holds Kueue release compiled (kueuerelease.Compiled()).
func NewKueueBuilder(dir, compiled string, opts ...Option) *KueueBuilder {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // go runs in another folder
	}
	b := &KueueBuilder{dir: dir, compiled: compiled, settings: defaultSettings()}
	for _, o := range opts {
		o(&b.settings)
	}
	if b.self == "" {
		if exe, err := os.Executable(); err == nil {
			b.self = exe
		} else {
			b.self = filepath.Join(dir, "sim") // only the binary folder counts
		}
	}
	return b
}

// DefaultKueueBuilder returns a KueueBuilder for this sim that builds into
// the kueue-sim binary folder (KUEUESIM_BIN_DIR or the user's cache),
// where sim run looks for the sims of other releases after the folder of
// this sim. KUBEBUILDER_ASSETS does not move it: that folder is the
// control plane's.
func DefaultKueueBuilder(opts ...Option) (*KueueBuilder, error) {
	dir, err := assets.DefaultBinDir()
	if err != nil {
		return nil, err
	}
	return NewKueueBuilder(dir, kueuerelease.Compiled(), opts...), nil
}

// Dir is the binary folder the sims are built into.
func (b *KueueBuilder) Dir() string { return b.dir }

// KueueSim is the sim of one Kueue release, as found.
type KueueSim struct {
	Release string // v0.19.2
	// Path is where the sim is: this sim, sim-kueue-<release> (or sim, for
	// go.mod's release) beside it, or sim-kueue-<release> in the binary
	// folder; for a missing one, where it is built.
	Path    string
	Present bool
	Self    bool // this sim holds the release
}

// Status finds the sim of release (a release or a minor, as
// kueuerelease.Resolve reads it). The error wraps
// assets.ErrUnsupportedKueue.
func (b *KueueBuilder) Status(release string) (KueueSim, error) {
	r, ok := kueuerelease.Resolve(release)
	if !ok {
		return KueueSim{}, fmt.Errorf("%w %s: kueue-sim builds Kueue %s (kueue@v0.19.2, or kueue@v0.19 for the newest of a minor)",
			assets.ErrUnsupportedKueue, release, strings.Join(kueuerelease.Supported, ", "))
	}
	s := KueueSim{Release: r, Path: filepath.Join(b.dir, assets.KueueSimName(r))}
	path, err := assets.KueueRelease(r, b.compiled, b.self, b.dir)
	switch {
	case err != nil: // missing: it is built into the binary folder
	case path == "":
		s.Path, s.Present, s.Self = b.self, true, true
	default:
		s.Path, s.Present = path, true
	}
	return s, nil
}

// StatusAll finds the sim of every supported release, oldest first.
func (b *KueueBuilder) StatusAll() []KueueSim {
	out := make([]KueueSim, 0, len(kueuerelease.Supported))
	for _, r := range kueuerelease.Supported {
		s, _ := b.Status(r) // supported: no error
		out = append(out, s)
	}
	return out
}

// Install builds the sim of release (a release or a minor) into the binary
// folder unless it is there already, or beside this sim, or is this sim.
// The build lands in a folder of its own in the binary folder and is
// renamed into place: an interrupted build leaves no sim that looks
// complete. It returns the sim as found or built.
func (b *KueueBuilder) Install(ctx context.Context, release string) (KueueSim, error) {
	s, err := b.Status(release)
	if err != nil {
		return s, err
	}
	switch {
	case s.Self:
		fmt.Fprintf(b.out, "Kueue %s is this sim (%s): nothing to build\n", s.Release, s.Path)
		return s, nil
	case s.Present:
		fmt.Fprintf(b.out, "the sim of Kueue %s is present (%s): nothing to build\n", s.Release, s.Path)
		return s, nil
	}
	src, err := b.Source()
	if err != nil {
		return s, fmt.Errorf("building the sim of Kueue %s: %w", s.Release, err)
	}
	modFile := ""
	if s.Release != kueuerelease.Default {
		modFile = filepath.Join("hack", "kueue", s.Release+".mod")
		if _, err := os.Stat(filepath.Join(src, modFile)); err != nil {
			return s, fmt.Errorf("building the sim of Kueue %s: %w: %s has no %s (a kueue-sim of another version?): "+
				"name a kueue-sim source tree of this sim's version with --source or %s", s.Release, ErrSource, src, modFile, EnvSource)
		}
	}
	goBin, err := b.lookPath("go")
	if err != nil {
		return s, fmt.Errorf("building the sim of Kueue %s from source needs the Go toolchain, and there is no `go` on PATH: "+
			"install Go %s or newer (https://go.dev/dl/ or your package manager), put its bin folder on PATH and run `sim tools install kueue@%s` again: %w",
			s.Release, goDirective(filepath.Join(src, cmpOr(modFile, "go.mod"))), s.Release, err)
	}
	if err := os.MkdirAll(b.dir, 0o755); err != nil {
		return s, fmt.Errorf("making the binary folder: %w", err)
	}
	stage, err := os.MkdirTemp(b.dir, ".build-")
	if err != nil {
		return s, fmt.Errorf("making a build folder in %s: %w", b.dir, err)
	}
	defer os.RemoveAll(stage)

	name := assets.KueueSimName(s.Release)
	fmt.Fprintf(b.out, "building the sim of Kueue %s from %s with %s into %s\n", s.Release, src, goBin, b.dir)
	fmt.Fprintln(b.out, "(the first build takes minutes: kueue-sim, Kueue and their libraries through the Go module proxy; later builds reuse Go's caches)")
	fmt.Fprintf(b.out, ">> %s (%s)\n", name, cmpOr(modFile, "go.mod"))
	start := b.clock.Now()
	if err := b.run.Run(ctx, kueueSimCommand(goBin, src, s.Release, b.simVersion, filepath.Join(stage, name)), b.out); err != nil {
		return s, fmt.Errorf("building the sim of Kueue %s: %w", s.Release, err)
	}
	if err := os.Rename(filepath.Join(stage, name), s.Path); err != nil {
		return s, fmt.Errorf("installing the sim of Kueue %s: %w", s.Release, err)
	}
	s.Present = true
	fmt.Fprintf(b.out, "   %s built in %s: %s\n", name, b.clock.Since(start).Round(time.Second), s.Path)
	return s, nil
}

// kueueSimCommand is the go build of the sim of release in the source tree
// src into out, as the Makefile's kueue-releases runs it: go.mod's release
// (kueuerelease.Default) with go.mod and no tag, any other with its module
// file and build tag. -mod=readonly keeps the module files as they are
// whatever GOFLAGS says; GOWORK=off keeps a go.work out of it.
func kueueSimCommand(goBin, src, release, version, out string) Command {
	args := []string{goBin, "build", "-mod=readonly"}
	if release != kueuerelease.Default {
		args = append(args, "-modfile="+filepath.Join("hack", "kueue", release+".mod"), "-tags", KueueTag(release))
	}
	if version != "" {
		args = append(args, "-ldflags", "-X main.version="+version)
	}
	args = append(args, "-o", out, "./cmd/sim")
	return Command{Dir: src, Env: []string{"GOWORK=off"}, Args: args}
}

// KueueTag is the build tag of release's wiring: kueue_v0_19 for v0.19.2.
func KueueTag(release string) string {
	return "kueue_" + strings.ReplaceAll(kueuerelease.Minor(release), ".", "_")
}

// Source is the kueue-sim source tree the sims are built in: the one named
// by WithSource, else by KUEUESIM_SOURCE (either must be the folder of
// kueue-sim's go.mod; ErrSource otherwise); else the tree this sim was
// built from, when it still is there (a clone, or the module cache of a go
// install; not for a -trimpath build); else the tree holding the current
// folder. ErrNoSource when none is.
func (b *KueueBuilder) Source() (string, error) {
	if b.source != "" {
		return checkSource(b.source, "--source")
	}
	if d := os.Getenv(EnvSource); d != "" {
		return checkSource(d, EnvSource)
	}
	if d := sourceFromBuild(); d != "" {
		return d, nil
	}
	if wd, err := os.Getwd(); err == nil {
		if d := moduleRoot(wd); d != "" {
			return d, nil
		}
	}
	return "", fmt.Errorf("%w (this sim's build folder is gone, or it was built with -trimpath, and the current folder is none): "+
		"pass --source DIR or set %s=DIR to a kueue-sim clone of this sim's version (%s), or run make kueue-releases in one",
		ErrNoSource, EnvSource, Module)
}

// checkSource is the absolute path of dir when it is the root of a
// kueue-sim source tree.
func checkSource(dir, from string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%w: %s (%s): %w", ErrSource, dir, from, err)
	}
	if !isModuleRoot(abs) {
		return "", fmt.Errorf("%w: %s (%s) holds no go.mod of %s: name the top folder of a kueue-sim clone", ErrSource, dir, from, Module)
	}
	return abs, nil
}

// sourceFromBuild is builtFrom; tests replace it.
var sourceFromBuild = builtFrom

// builtFrom is the source tree this binary was built from, when the
// compiler recorded absolute paths (no -trimpath) and the tree is still
// there; "" otherwise.
func builtFrom() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	return moduleRoot(filepath.Dir(file))
}

// moduleRoot is the folder of kueue-sim's go.mod at dir or above it; ""
// when there is none.
func moduleRoot(dir string) string {
	for {
		if isModuleRoot(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// isModuleRoot tells whether dir holds a go.mod declaring Module.
func isModuleRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) >= 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == Module
		}
	}
	return false
}

// goDirective is the go version the module file at path asks for, or the
// control-plane tools' when it cannot be read.
func goDirective(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return GoVersion()
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	return GoVersion()
}
