package kueuerelease

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
)

// Compiled is the release of the Kueue compiled into this binary, such as
// v0.17.0. It is the Go module version the binary's build info names when
// it names one (a binary says which Kueue decides, whatever module file
// built it), else the release the build's module file pins (test binaries
// carry no module versions).
func Compiled() string {
	if v := fromBuildInfo(); v != "" {
		return v
	}
	return compiled
}

func fromBuildInfo() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range info.Deps {
		if d.Path != "sigs.k8s.io/kueue" {
			continue
		}
		if d.Replace != nil {
			// A replace by a local folder names no version: the build's
			// own pin is the best name for the code built.
			if d.Replace.Version == "" {
				return ""
			}
			return d.Replace.Version
		}
		return d.Version
	}
	return ""
}

// keyPattern is a release ("v0.19.2") or a minor ("v0.19").
var keyPattern = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))?$`)

// ParseKey checks that key names a release ("v0.19.2") or a minor
// ("v0.19"), with its leading v.
func ParseKey(key string) error {
	if !keyPattern.MatchString(key) {
		return fmt.Errorf("%q is not a Kueue release or minor: write it as v0.19.2 (one release) or v0.19 (every release of the minor)", key)
	}
	return nil
}

// Minor is release's minor: v0.19 for v0.19.2 (and for v0.19).
func Minor(release string) string {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return release
	}
	return parts[0] + "." + parts[1]
}

// Matches tells whether key (a release or a minor, see ParseKey) selects
// release.
func Matches(key, release string) bool {
	if strings.Count(key, ".") == 1 {
		return key == Minor(release)
	}
	return key == release
}

// Supported are the Kueue releases kueue-sim builds against, oldest
// first: the one go.mod requires and those with a module file under
// hack/kueue, which the Makefile's KUEUE_RELEASES builds into
// sim-kueue-<release> (a test checks the three agree).
var Supported = []string{"v0.16.2", "v0.17.1", "v0.18.2", Default}

// Default is the Kueue release go.mod requires: the one `sim` holds (every
// other release's sim is sim-kueue-<release> beside it).
const Default = "v0.19.2"

// Selects tells whether key (see ParseKey) selects a supported release.
func Selects(key string) bool {
	for _, r := range Supported {
		if Matches(key, r) {
			return true
		}
	}
	return false
}

// Resolve is the newest supported release key selects (see ParseKey):
// v0.19.2 for "v0.19", "v0.19.2" or "0.19.2"; false when none does.
func Resolve(key string) (string, bool) {
	key = "v" + strings.TrimPrefix(key, "v")
	if ParseKey(key) != nil {
		return "", false
	}
	for i := len(Supported) - 1; i >= 0; i-- {
		if Matches(key, Supported[i]) {
			return Supported[i], true
		}
	}
	return "", false
}
