package tools

import (
	"io"
	"os/exec"

	"k8s.io/utils/clock"
)

// Option configures an Installer or a KueueBuilder.
type Option func(*settings)

// settings are what Installer and KueueBuilder share, and what only a
// KueueBuilder reads.
type settings struct {
	out      io.Writer
	run      Runner
	lookPath func(string) (string, error)
	clock    clock.PassiveClock

	// KueueBuilder only.
	source     string // the kueue-sim source tree (WithSource)
	simVersion string // -X main.version of the sims it builds
	self       string // this sim's path
}

// WithOutput sends progress lines and go's output to w (default: discarded).
func WithOutput(w io.Writer) Option { return func(s *settings) { s.out = w } }

// WithRunner runs the go commands with r instead of as child processes.
func WithRunner(r Runner) Option { return func(s *settings) { s.run = r } }

// WithLookPath finds the go command with f instead of exec.LookPath.
func WithLookPath(f func(file string) (string, error)) Option {
	return func(s *settings) { s.lookPath = f }
}

// WithClock times the builds with c.
func WithClock(c clock.PassiveClock) Option { return func(s *settings) { s.clock = c } }

// WithSource names the kueue-sim source tree a KueueBuilder builds in
// (default: KUEUESIM_SOURCE, else the tree this sim was built from, else
// the current folder; see KueueBuilder.Source).
func WithSource(dir string) Option { return func(s *settings) { s.source = dir } }

// WithSimVersion is the build version a KueueBuilder links into the sims
// it builds (-X main.version=v, as the Makefile's LDFLAGS; default: none,
// so they say "dev").
func WithSimVersion(v string) Option { return func(s *settings) { s.simVersion = v } }

// WithSelf is the path of this sim, beside which a KueueBuilder finds the
// sims built there (sim-kueue-<release>, make kueue-releases) before
// looking in its folder (default: os.Executable).
func WithSelf(path string) Option { return func(s *settings) { s.self = path } }

func defaultSettings() settings {
	return settings{out: io.Discard, run: execRunner{}, lookPath: exec.LookPath, clock: clock.RealClock{}}
}

func defaultInstaller(dir string) *Installer {
	return &Installer{dir: dir, settings: defaultSettings()}
}
