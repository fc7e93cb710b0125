package config

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
)

// Manifests holds the CRDs and webhook manifests kueue-sim installs into the
// control plane it starts, Kueue's aside (Kueue). Files under crd/third_party
// are the pinned dependencies' copies, committed and kept equal to them by a
// test (`make manifests` refreshes them); the rest are kueue-sim's own.
//
//go:embed crd webhook
var Manifests embed.FS

// Kueue returns the manifests of Kueue release (such as "v0.17.1"), as
// shipped in its module: CRDs under crd/, webhook configurations under
// webhook/. A build embeds only the release it runs (kueue_*.go).
func Kueue(release string) (fs.FS, error) {
	dir := path.Join("kueue", release)
	if _, err := fs.Stat(kueue, path.Join(dir, "crd")); err != nil {
		return nil, fmt.Errorf("Kueue %s's manifests are not embedded in this build (config/kueue/%s, chosen by its build tag): %w", release, release, err)
	}
	return fs.Sub(kueue, dir)
}
