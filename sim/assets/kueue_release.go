package assets

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// ErrUnsupportedKueue is wrapped by KueueRelease's error for a release
// kueue-sim does not build against.
var ErrUnsupportedKueue = errors.New("unsupported Kueue release")

// ErrKueueSimMissing is wrapped by KueueRelease's error for a supported
// release whose sim is built nowhere it looks.
var ErrKueueSimMissing = errors.New("not built")

// KueueSimName is the file name of the sim of Kueue release:
// sim-kueue-<release>.
func KueueSimName(release string) string { return "sim-kueue-" + release }

// KueueRelease finds the sim that runs Kueue release want ("v0.19.2",
// "0.19.2", or a minor, "v0.19", for its newest supported release): "" when
// it is this binary, which runs release compiled and lives at self;
// otherwise the path of sim-kueue-<release> beside self (or of sim, for
// go.mod's release, kueuerelease.Default), else of sim-kueue-<release> in
// binDir, the binary folder `sim tools install kueue@<release>` builds into
// ("" looks beside self only).
// The error names the supported releases (ErrUnsupportedKueue), or the
// commands that build a supported one that is missing (ErrKueueSimMissing).
func KueueRelease(want, compiled, self, binDir string) (string, error) {
	release, ok := kueuerelease.Resolve(want)
	if ok && release == compiled {
		return "", nil
	}
	if !ok {
		return "", fmt.Errorf("%w %s: kueue-sim runs Kueue %s (choose one with --kueue or KUEUESIM_KUEUE)",
			ErrUnsupportedKueue, want, strings.Join(kueuerelease.Supported, ", "))
	}
	name := KueueSimName(release)
	if release == kueuerelease.Default {
		name = "sim" // go.mod's release: the sim the others are built beside
	}
	tried := []string{filepath.Join(filepath.Dir(self), name)}
	if binDir != "" {
		tried = append(tried, filepath.Join(binDir, KueueSimName(release)))
	}
	for _, path := range tried {
		if IsExecutable(path) {
			return path, nil
		}
	}
	return "", fmt.Errorf("the sim of Kueue %s is %w (no %s): build it with `sim tools install kueue@%s` "+
		"(or pass --install-tools to sim run), or with make kueue-releases in a kueue-sim clone",
		release, ErrKueueSimMissing, strings.Join(tried, " nor "), release)
}
