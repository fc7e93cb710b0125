package kueuesetup

import "runtime/debug"

// Version is the release of the Kueue compiled into this binary, its Go
// module version (such as v0.17.0), read from the binary's build info:
// the binary itself says which Kueue decides, whatever module file built
// it. Empty when the build info does not name Kueue. A replace by a local
// folder names no version: Version then names the required one, not the
// code built.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range info.Deps {
		if d.Path != "sigs.k8s.io/kueue" {
			continue
		}
		if d.Replace != nil && d.Replace.Version != "" {
			return d.Replace.Version
		}
		return d.Version
	}
	return ""
}
