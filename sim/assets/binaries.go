package assets

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// KubernetesVersion is the version of the control-plane binaries kueue-sim
// builds and runs. It must match the module sim/tools builds them in
// (sim/tools/pins/k8sbin/go.mod.txt; a test in sim/tools checks it).
const KubernetesVersion = "v1.35.4"

// EnvAssets is the variable envtest users already set to point at their
// control-plane binaries; kueue-sim honours it.
const EnvAssets = "KUBEBUILDER_ASSETS"

// EnvBinDir overrides the default binary cache folder.
const EnvBinDir = "KUEUESIM_BIN_DIR"

// Binary names, as they appear in the binary folder.
const (
	APIServer         = "kube-apiserver"
	Etcd              = "etcd"
	Scheduler         = "kube-scheduler"
	ControllerManager = "kube-controller-manager"
)

// Build is the build metadata of kueue-sim's kube-scheduler and
// kube-controller-manager (their --version reports v<version>+ this): the
// upstream commands built from kueue-sim's mains (see
// sim/tools/pins/k8sbin), which know the kubeconfig entry that keeps their
// Events out of the API server, and in kube-controller-manager's case one
// flag more. Stock binaries know neither.
const Build = "kueue-sim.2"

// Built are the binaries kueue-sim builds from its own mains (Build).
var Built = []string{Scheduler, ControllerManager}

// All lists every binary a control plane needs, in start order.
var All = []string{Etcd, APIServer, Scheduler, ControllerManager}

// Binaries is a folder holding the control-plane binaries.
type Binaries struct {
	Dir string
}

// Path returns the full path of the named binary.
func (b Binaries) Path(name string) string { return filepath.Join(b.Dir, name) }

// DefaultBinDir is where `sim tools install` (`make tools`) caches the
// binaries: KUEUESIM_BIN_DIR, or the user's cache folder, per Kubernetes
// version, so fresh clones and CI runs reuse them.
func DefaultBinDir() (string, error) {
	if d := os.Getenv(EnvBinDir); d != "" {
		return d, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache folder: %w", err)
	}
	return filepath.Join(cache, "kueue-sim", "k8s-"+KubernetesVersion), nil
}

// FromCache is BinDir's from when the folder is the kueue-sim binary cache.
const FromCache = "the kueue-sim binary cache"

// BinDir returns the folder the control-plane binaries are looked up in:
// KUBEBUILDER_ASSETS when set, otherwise DefaultBinDir. from names which
// (EnvAssets or FromCache).
func BinDir() (dir, from string, err error) {
	if d := os.Getenv(EnvAssets); d != "" {
		return d, EnvAssets, nil
	}
	d, err := DefaultBinDir()
	if err != nil {
		return "", "", err
	}
	return d, FromCache, nil
}

// FindBinaries returns the folder holding every control-plane binary:
// KUBEBUILDER_ASSETS when set, otherwise the default cache folder. The error
// names what is missing and how to get it.
func FindBinaries() (Binaries, error) {
	dir, from, err := BinDir()
	if err != nil {
		return Binaries{}, err
	}
	b := Binaries{Dir: dir}
	var missing []string
	for _, name := range All {
		if !IsExecutable(b.Path(name)) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return b, &MissingBinariesError{Dir: dir, From: from, Missing: missing}
	}
	return b, nil
}

// IsExecutable tells whether path is a regular file with an execute bit.
func IsExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// MissingBinariesError says which control-plane binaries are absent and how
// to get them.
type MissingBinariesError struct {
	Dir     string
	From    string
	Missing []string
}

func (e *MissingBinariesError) Error() string {
	msg := fmt.Sprintf("control-plane binaries missing from %s (%s): %s; ", e.Dir, e.From, strings.Join(e.Missing, ", "))
	if e.From == EnvAssets {
		return msg + "put them there, or unset " + EnvAssets + " and run `sim tools install` to build them from source"
	}
	return msg + "run `sim tools install` to build them from source with the Go toolchain " +
		"(minutes the first time; `make tools` in a clone) or pass --install-tools to sim up or sim run, " +
		"or set " + EnvAssets + " to a folder holding kube-apiserver, etcd, kube-scheduler and kube-controller-manager"
}

// IsMissingBinaries tells whether err is a *MissingBinariesError.
func IsMissingBinaries(err error) bool {
	var m *MissingBinariesError
	return errors.As(err, &m)
}

// Version runs the named binary with --version and returns its first line,
// e.g. "Kubernetes v1.35.4" or "etcd Version: 3.6.16".
func (b Binaries) Version(name string) (string, error) {
	out, err := exec.Command(b.Path(name), "--version").Output()
	if err != nil {
		return "", fmt.Errorf("asking %s for its version: %w", name, err)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line, nil
}
