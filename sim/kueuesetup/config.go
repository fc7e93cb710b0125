package kueuesetup

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	"sigs.k8s.io/yaml"
)

// DefaultFrameworks are the job integrations kueue-sim enables when the
// user's Kueue Configuration names none: what OpenShift AI hands to Kueue.
var DefaultFrameworks = []string{
	"batch/job",
	"kubeflow.org/pytorchjob",
	"ray.io/rayjob",
	"ray.io/raycluster",
	"pod",
	"deployment",
	"statefulset",
}

const defaultConfig = `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
`

// LoadConfig reads a Kueue Configuration file with Kueue's own loader (strict
// decoding, defaulting, validation with field paths). An empty path means
// Kueue's defaults. Either way, when the file names no integrations,
// DefaultFrameworks are enabled rather than Kueue's batch/job alone. It
// returns the manager options Kueue derives from the Configuration (cache
// settings among them).
func LoadConfig(scheme *runtime.Scheme, path string) (ctrl.Options, *configapi.Configuration, error) {
	if path == "" {
		return LoadConfigData(scheme, "the default Kueue configuration", []byte(defaultConfig))
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return ctrl.Options{}, nil, fmt.Errorf("reading Kueue configuration: %w", err)
	}
	return LoadConfigData(scheme, path, raw)
}

// LoadConfigData is LoadConfig for a Configuration held in memory; name
// names it in errors.
func LoadConfigData(scheme *runtime.Scheme, name string, raw []byte) (ctrl.Options, *configapi.Configuration, error) {
	raw, err := withDefaultFrameworks(raw)
	if err != nil {
		return ctrl.Options{}, nil, fmt.Errorf("reading Kueue configuration %s: %w", name, err)
	}
	// Kueue's loader reads files only.
	dir, err := os.MkdirTemp("", "kueue-sim-config-")
	if err != nil {
		return ctrl.Options{}, nil, fmt.Errorf("staging Kueue configuration: %w", err)
	}
	defer os.RemoveAll(dir)
	staged := filepath.Join(dir, "kueue-config.yaml")
	if err := os.WriteFile(staged, raw, 0o600); err != nil {
		return ctrl.Options{}, nil, fmt.Errorf("staging Kueue configuration: %w", err)
	}
	opts, cfg, err := loadConfig(scheme, staged)
	if err != nil {
		return ctrl.Options{}, nil, fmt.Errorf("loading Kueue configuration %s: %w", name, err)
	}
	// The embedded control plane hands out the webhook certificates and runs
	// a single Kueue.
	cfg.InternalCertManagement = &configapi.InternalCertManagement{Enable: ptr.To(false)}
	if cfg.LeaderElection != nil {
		cfg.LeaderElection.LeaderElect = ptr.To(false)
	}
	opts.LeaderElection = false
	return opts, &cfg, nil
}

// withDefaultFrameworks sets integrations.frameworks to DefaultFrameworks
// when the document does not set it.
func withDefaultFrameworks(raw []byte) ([]byte, error) {
	doc := map[string]any{}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	integ, _ := doc["integrations"].(map[string]any)
	if integ == nil {
		integ = map[string]any{}
	}
	if _, set := integ["frameworks"]; set {
		return raw, nil
	}
	integ["frameworks"] = DefaultFrameworks
	doc["integrations"] = integ
	return yaml.Marshal(doc)
}
