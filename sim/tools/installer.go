package tools

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// Installer builds tools into a binary folder.
type Installer struct {
	dir string
	// external: the folder is KUBEBUILDER_ASSETS, someone else's; nothing is
	// built into it.
	external bool
	settings
}

// New returns an Installer that builds into dir.
func New(dir string, opts ...Option) *Installer {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // go runs in another folder
	}
	in := defaultInstaller(dir)
	for _, o := range opts {
		o(&in.settings)
	}
	return in
}

// Default returns an Installer for the folder sim/assets finds the binaries
// in: KUBEBUILDER_ASSETS when set (then it builds nothing), otherwise
// KUEUESIM_BIN_DIR or the kueue-sim binary cache.
func Default(opts ...Option) (*Installer, error) {
	dir, from, err := assets.BinDir()
	if err != nil {
		return nil, err
	}
	in := New(dir, opts...)
	in.external = from == assets.EnvAssets
	return in, nil
}

// Dir is the binary folder.
func (in *Installer) Dir() string { return in.dir }

// External tells whether the folder is KUBEBUILDER_ASSETS, where nothing is
// built.
func (in *Installer) External() bool { return in.external }

// Status is a tool as found in the binary folder.
type Status struct {
	Tool
	Path    string
	Present bool
	// Note says why a file that is there does not count ("reports v0.7.0").
	Note string
}

// Status looks the tools up in the binary folder. kwok and kwokctl count
// only when they report their pinned version.
func (in *Installer) Status(ctx context.Context, tools []Tool) []Status {
	out := make([]Status, len(tools))
	for i, t := range tools {
		s := Status{Tool: t, Path: filepath.Join(in.dir, t.Name)}
		s.Present = assets.IsExecutable(s.Path)
		switch {
		case !s.Present:
		case t.Set == Kwok:
			if v := reportedVersion(ctx, s.Path); v != t.Version {
				s.Present, s.Note = false, "reports "+cmpOr(v, "no version")
			}
		case t.build != "":
			if v := versionOutput(ctx, s.Path); !strings.Contains(v, t.Version+t.build) {
				s.Present, s.Note = false, "not kueue-sim's build (reports "+cmpOr(v, "no version")+")"
			}
		}
		out[i] = s
	}
	return out
}

var versionPattern = regexp.MustCompile(`v[0-9][0-9.]*[0-9]`)

// reportedVersion is the first vX.Y.Z in the output of path --version.
func reportedVersion(ctx context.Context, path string) string {
	return versionPattern.FindString(versionOutput(ctx, path))
}

// versionOutput is what path --version prints, trimmed.
func versionOutput(ctx context.Context, path string) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, path, "--version").Output()
	return strings.TrimSpace(string(out))
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// Install builds the tools missing from the binary folder, one go build
// each, and keeps those present. It builds nothing into KUBEBUILDER_ASSETS.
func (in *Installer) Install(ctx context.Context, tools []Tool) error {
	if in.external {
		fmt.Fprintf(in.out, "%s=%s is set: using the binaries there, building nothing\n", assets.EnvAssets, in.dir)
		return nil
	}
	var missing []Tool
	for _, s := range in.Status(ctx, tools) {
		if !s.Present {
			missing = append(missing, s.Tool)
		}
	}
	if len(missing) == 0 {
		fmt.Fprintf(in.out, "%s present in %s: nothing to build\n", names(tools), in.dir)
		return nil
	}
	goBin, err := in.lookPath("go")
	if err != nil {
		return &NoGoError{Tools: nameList(missing), Err: err}
	}
	if err := os.MkdirAll(in.dir, 0o755); err != nil {
		return fmt.Errorf("making the binary folder: %w", err)
	}
	// Builds land in a folder beside the binaries and are renamed into
	// place: an interrupted build leaves no binary that looks complete.
	stage, err := os.MkdirTemp(in.dir, ".build-")
	if err != nil {
		return fmt.Errorf("making a build folder in %s: %w", in.dir, err)
	}
	defer os.RemoveAll(stage)
	modules := map[string]string{} // pin -> folder holding its module
	defer func() {
		for _, d := range modules {
			os.RemoveAll(d)
		}
	}()

	fmt.Fprintf(in.out, "building %s from source with %s into %s\n", names(missing), goBin, in.dir)
	fmt.Fprintln(in.out, "(the first build takes minutes: about 4 for the three Kubernetes binaries and 1 for etcd on 2 cores, a few for kwok; later builds reuse Go's caches)")
	began := in.clock.Now()
	for _, t := range missing {
		if t.pin != "" && modules[t.pin] == "" {
			d, err := os.MkdirTemp("", "kueue-sim-"+t.pin+"-")
			if err != nil {
				return fmt.Errorf("making a folder for the pinned module %s: %w", t.pin, err)
			}
			modules[t.pin] = d
			if err := writePin(d, t.pin); err != nil {
				return err
			}
		}
		fmt.Fprintf(in.out, ">> %s %s (%s)\n", t.Name, t.Version, t.Package)
		start := in.clock.Now()
		if err := in.run.Run(ctx, buildCommand(goBin, t, modules[t.pin], stage), in.out); err != nil {
			return fmt.Errorf("building %s %s: %w", t.Name, t.Version, err)
		}
		if err := os.Rename(filepath.Join(stage, t.Name), filepath.Join(in.dir, t.Name)); err != nil {
			return fmt.Errorf("installing %s: %w", t.Name, err)
		}
		fmt.Fprintf(in.out, "   %s built in %s\n", t.Name, in.clock.Since(start).Round(time.Second))
	}
	fmt.Fprintf(in.out, "%s ready in %s (%s)\n", names(tools), in.dir, in.clock.Since(began).Round(time.Second))
	return nil
}

// buildCommand is the go command that builds t into the folder out: go build
// in the pinned module in modDir, or go install Package@Version.
func buildCommand(goBin string, t Tool, modDir, out string) Command {
	if t.pin == "" {
		return Command{Dir: out, Env: append([]string{"GOBIN=" + out}, t.env...),
			Args: []string{goBin, "install", "-trimpath", "-ldflags", t.ldflags, t.Package + "@" + t.Version}}
	}
	return Command{Dir: modDir, Env: append([]string{"GOWORK=off"}, t.env...),
		Args: []string{goBin, "build", "-trimpath", "-ldflags", t.ldflags, "-o", filepath.Join(out, t.Name), t.Package}}
}

func nameList(tools []Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// names is "etcd, kube-apiserver and kube-scheduler".
func names(tools []Tool) string { return joinNames(nameList(tools)) }

func joinNames(n []string) string {
	if len(n) <= 1 {
		return strings.Join(n, "")
	}
	return strings.Join(n[:len(n)-1], ", ") + " and " + n[len(n)-1]
}
