package assets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// OtherKueueReleases are the Kueue releases kueue-sim builds against
// besides the one go.mod requires, each into its own binary,
// sim-kueue-<release>, beside sim (make kueue-releases, from
// hack/kueue/<release>.mod; a test checks the three agree).
var OtherKueueReleases = []string{"v0.19.2"}

// ErrUnsupportedKueue is wrapped by KueueRelease's error for a release
// kueue-sim does not build against.
var ErrUnsupportedKueue = errors.New("unsupported Kueue release")

// KueueRelease finds the sim that runs Kueue release want ("v0.19.2" or
// "0.19.2"): "" when it is this binary, which runs release compiled and
// lives at self; otherwise the path of sim-kueue-<release> beside self.
// The error names the supported releases, or the command that builds a
// supported one that is missing.
func KueueRelease(want, compiled, self string) (string, error) {
	release := "v" + strings.TrimPrefix(want, "v")
	if release == compiled {
		return "", nil
	}
	if !slices.Contains(OtherKueueReleases, release) {
		supported := append([]string{compiled}, OtherKueueReleases...)
		return "", fmt.Errorf("%w %s: kueue-sim runs Kueue %s (choose one with --kueue or KUEUESIM_KUEUE)",
			ErrUnsupportedKueue, want, strings.Join(supported, ", "))
	}
	path := filepath.Join(filepath.Dir(self), "sim-kueue-"+release)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("the sim of Kueue %s, %s, is missing: build it in a kueue-sim clone with make kueue-releases: %w", release, path, err)
	}
	return path, nil
}
