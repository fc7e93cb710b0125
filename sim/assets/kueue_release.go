package assets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// ErrUnsupportedKueue is wrapped by KueueRelease's error for a release
// kueue-sim does not build against.
var ErrUnsupportedKueue = errors.New("unsupported Kueue release")

// KueueRelease finds the sim that runs Kueue release want ("v0.19.2",
// "0.19.2", or a minor, "v0.19", for its newest supported release): "" when
// it is this binary, which runs release compiled and
// lives at self; otherwise the path of sim-kueue-<release> beside self, or
// of sim for go.mod's release (kueuerelease.Default).
// The error names the supported releases, or the command that builds a
// supported one that is missing.
func KueueRelease(want, compiled, self string) (string, error) {
	release, ok := kueuerelease.Resolve(want)
	if ok && release == compiled {
		return "", nil
	}
	if !ok {
		return "", fmt.Errorf("%w %s: kueue-sim runs Kueue %s (choose one with --kueue or KUEUESIM_KUEUE)",
			ErrUnsupportedKueue, want, strings.Join(kueuerelease.Supported, ", "))
	}
	name := "sim-kueue-" + release
	if release == kueuerelease.Default {
		name = "sim" // go.mod's release: the sim the others are built beside
	}
	path := filepath.Join(filepath.Dir(self), name)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("the sim of Kueue %s, %s, is missing: build it in a kueue-sim clone with make kueue-releases: %w", release, path, err)
	}
	return path, nil
}
