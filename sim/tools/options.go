package tools

import (
	"io"
	"os/exec"

	"k8s.io/utils/clock"
)

// Option configures an Installer.
type Option func(*Installer)

// WithOutput sends progress lines and go's output to w (default: discarded).
func WithOutput(w io.Writer) Option { return func(in *Installer) { in.out = w } }

// WithRunner runs the go commands with r instead of as child processes.
func WithRunner(r Runner) Option { return func(in *Installer) { in.run = r } }

// WithLookPath finds the go command with f instead of exec.LookPath.
func WithLookPath(f func(file string) (string, error)) Option {
	return func(in *Installer) { in.lookPath = f }
}

// WithClock times the builds with c.
func WithClock(c clock.PassiveClock) Option { return func(in *Installer) { in.clock = c } }

func defaultInstaller(dir string) *Installer {
	return &Installer{dir: dir, out: io.Discard, run: execRunner{}, lookPath: exec.LookPath, clock: clock.RealClock{}}
}
