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
// builds and runs. It must match hack/k8sbin/go.mod (a test checks it).
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

// All lists every binary a control plane needs, in start order.
var All = []string{Etcd, APIServer, Scheduler, ControllerManager}

// Binaries is a folder holding the control-plane binaries.
type Binaries struct {
	Dir string
}

// Path returns the full path of the named binary.
func (b Binaries) Path(name string) string { return filepath.Join(b.Dir, name) }

// DefaultBinDir is where `make tools` caches the binaries: the user's cache
// folder, per Kubernetes version, so fresh clones and CI runs reuse them.
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

// FindBinaries returns the folder holding every control-plane binary:
// KUBEBUILDER_ASSETS when set, otherwise the default cache folder. The error
// names what is missing and how to get it.
func FindBinaries() (Binaries, error) {
	dir, from := os.Getenv(EnvAssets), EnvAssets
	if dir == "" {
		d, err := DefaultBinDir()
		if err != nil {
			return Binaries{}, err
		}
		dir, from = d, "the kueue-sim binary cache"
	}
	b := Binaries{Dir: dir}
	var missing []string
	for _, name := range All {
		if st, err := os.Stat(b.Path(name)); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return b, &MissingBinariesError{Dir: dir, From: from, Missing: missing}
	}
	return b, nil
}

// MissingBinariesError says which control-plane binaries are absent and how
// to get them.
type MissingBinariesError struct {
	Dir     string
	From    string
	Missing []string
}

func (e *MissingBinariesError) Error() string {
	return fmt.Sprintf("control-plane binaries missing from %s (%s): %s; "+
		"run `make tools` to build them from source (8-10 minutes the first time), "+
		"or set %s to a folder holding kube-apiserver, etcd, kube-scheduler and kube-controller-manager",
		e.Dir, e.From, strings.Join(e.Missing, ", "), EnvAssets)
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
