package kwok

import (
	_ "embed"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// Version is the kwok release `sim tools install --kwok` builds; the stages in
// stages.yaml are that release's.
const Version = "v0.8.0"

// Binary names in the binary folder.
const (
	Kwokctl = "kwokctl"
	Kwok    = "kwok"
)

//go:embed stages.yaml
var stages []byte

// FindBinaries returns the folder holding the control-plane binaries and
// kwok and kwokctl. The error says what is missing and how to build it.
func FindBinaries() (assets.Binaries, error) {
	b, err := assets.FindBinaries()
	if err != nil {
		return b, err
	}
	var missing []string
	for _, name := range []string{Kwok, Kwokctl} {
		if !assets.IsExecutable(b.Path(name)) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return b, fmt.Errorf("finding kwok: %v missing in %s: run `sim tools install --kwok` (`make kwok` in a clone) to build kwok and kwokctl %s there", missing, b.Dir, Version)
	}
	return b, nil
}

// Config is a kwokctl configuration file (YAML, several documents) for a
// cluster of the binaries in b, run by kwokctl's binary runtime, with
// kueue-sim's stages. kwokctl reads only its --config file for these
// options, so everything is in it.
func Config(b assets.Binaries) ([]byte, error) {
	doc := map[string]any{
		"apiVersion": "config.kwok.x-k8s.io/v1alpha1",
		"kind":       "KwokctlConfiguration",
		"options": map[string]any{
			"runtime":                     "binary",
			"kubeVersion":                 assets.KubernetesVersion,
			"kubeApiserverBinary":         b.Path(assets.APIServer),
			"kubeControllerManagerBinary": b.Path(assets.ControllerManager),
			"kubeSchedulerBinary":         b.Path(assets.Scheduler),
			"etcdBinary":                  b.Path(assets.Etcd),
			"kwokControllerBinary":        b.Path(Kwok),
			"quietPull":                   true,
		},
	}
	head, err := yaml.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("writing the kwokctl configuration: %w", err)
	}
	out := append([]byte("# kwokctl configuration written by kueue-sim (sim/kwok.Config).\n"), head...)
	return append(out, stages...), nil // stages.yaml starts each document with ---
}

// WriteConfig writes Config(b) to path.
func WriteConfig(path string, b assets.Binaries) error {
	data, err := Config(b)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("writing the kwokctl configuration: %w", err)
	}
	return nil
}
