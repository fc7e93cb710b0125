package kueuesetup

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-logr/logr"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	"sigs.k8s.io/kueue/pkg/features"
	"sigs.k8s.io/kueue/pkg/util/waitforpodsready"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/scheme"
)

// Defaults reports what the Kueue compiled in reads from the Configuration
// body raw (an empty one when raw is empty); name names it in errors. The
// Configuration is loaded and its feature gates set as a run does
// (LoadConfigData, then setFeatureGates), and waitForPodsReady is decided
// by Kueue's own waitforpodsready.Enabled, which in v0.19 reads a feature
// gate as well.
//
// Kueue keeps its feature gates in one process-wide registry: Defaults
// sets the Configuration's gates there, after forgetting those an earlier
// call set (resetFeatureGates). It is meant for a short-lived command (sim
// kueue-defaults), not for a process running Kueue; once Kueue refuses a
// Configuration's gates, the registry refuses every later one in the
// process.
func Defaults(name string, raw []byte) (kueuerelease.Defaults, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = []byte(defaultConfig)
	}
	gates, err := featureGates()
	if err != nil {
		return kueuerelease.Defaults{}, err
	}
	if err := resetFeatureGates(gates); err != nil {
		return kueuerelease.Defaults{}, err
	}
	s, err := scheme.New()
	if err != nil {
		return kueuerelease.Defaults{}, fmt.Errorf("building the scheme: %w", err)
	}
	_, cfg, err := LoadConfigData(s, name, raw)
	if err != nil {
		return kueuerelease.Defaults{}, err
	}
	// v0.17's loader leaves the gates to setup, which sets them as here;
	// v0.18's and v0.19's set them already, and setting them again, as
	// setup does too, changes nothing.
	if err := setFeatureGates(cfg, s); err != nil {
		return kueuerelease.Defaults{}, fmt.Errorf("loading Kueue configuration %s: %w", name, err)
	}
	effective, err := flattenConfiguration(cfg)
	if err != nil {
		return kueuerelease.Defaults{}, err
	}
	configured := map[string]bool{}
	maps.Copy(configured, cfg.FeatureGates)
	return kueuerelease.Defaults{
		KueueVersion:           kueuerelease.Compiled(),
		FeatureGates:           gates,
		WaitForPodsReady:       waitForPodsReadyOf(cfg),
		ConfiguredFeatureGates: configured,
		EffectiveConfiguration: effective,
	}, nil
}

// waitForPodsReadyOf is whether Kueue waits for pods to be ready with cfg
// and the gates set, and for how long.
func waitForPodsReadyOf(cfg *configapi.Configuration) kueuerelease.WaitForPodsReady {
	if !waitforpodsready.Enabled(cfg.WaitForPodsReady) {
		return kueuerelease.WaitForPodsReady{}
	}
	return kueuerelease.WaitForPodsReady{Enabled: true, Timeout: cfg.WaitForPodsReady.Timeout.Duration.String()}
}

// featureGates are Kueue's feature gates, sorted by name, each with the
// spec the process-wide registry applies: of the gate's versioned specs,
// the newest at the registry's version (the Kubernetes release
// component-base is, past every Kueue spec's), as features.Enabled reads
// it. Kueue's gate table is unexported, and the registry holds other
// components' gates too (component-base's AllAlpha and AllBeta, KubeRay's
// RayJobDeletionPolicy and others), so Kueue's own LogFeatureGates, which
// logs the registered gates of that table, says which are Kueue's.
func featureGates() ([]kueuerelease.FeatureGate, error) {
	names := &gateNames{}
	features.LogFeatureGates(logr.New(names))
	if len(names.names) == 0 {
		return nil, fmt.Errorf("reading Kueue's feature gates: features.LogFeatureGates logged none")
	}
	specs := utilfeature.DefaultMutableFeatureGate.GetAll()
	var gates []kueuerelease.FeatureGate
	for _, n := range slices.Sorted(slices.Values(names.names)) {
		spec, ok := specs[n]
		if !ok {
			return nil, fmt.Errorf("reading Kueue's feature gates: %s is not registered", n)
		}
		gates = append(gates, kueuerelease.FeatureGate{
			Name:       string(n),
			Default:    spec.Default,
			PreRelease: preRelease(spec),
			Locked:     spec.LockToDefault,
		})
	}
	return gates, nil
}

// preRelease names spec's stage as kueuerelease does; a stage it does not
// know keeps component-base's name.
func preRelease(spec featuregate.FeatureSpec) string {
	switch spec.PreRelease {
	case featuregate.Alpha:
		return kueuerelease.Alpha
	case featuregate.Beta:
		return kueuerelease.Beta
	case featuregate.GA:
		return kueuerelease.GA
	case featuregate.Deprecated:
		return kueuerelease.Deprecated
	}
	return string(spec.PreRelease)
}

// resetFeatureGates forgets the value an earlier Defaults set for each
// of gates, so that each call reads its Configuration's gates alone. In a
// fresh process it finds none set. It cannot forget a value Kueue refused
// (an unknown gate, a locked one set otherwise): component-base's registry
// keeps those and refuses every later setting in the process.
func resetFeatureGates(gates []kueuerelease.FeatureGate) error {
	registry := utilfeature.DefaultMutableFeatureGate
	for _, g := range gates {
		name := featuregate.Feature(g.Name)
		if !registry.ExplicitlySet(name) {
			continue
		}
		if err := registry.ResetFeatureValueToDefault(name); err != nil {
			return fmt.Errorf("setting Kueue's feature gate %s back to its default: %w", g.Name, err)
		}
	}
	return nil
}

// gateNames is a logr sink keeping the gate names of the one line
// features.LogFeatureGates logs.
type gateNames struct {
	names []featuregate.Feature
}

func (*gateNames) Init(logr.RuntimeInfo) {}
func (*gateNames) Enabled(int) bool      { return true }
func (*gateNames) Error(error, string, ...any) {
}
func (s *gateNames) WithValues(...any) logr.LogSink { return s }
func (s *gateNames) WithName(string) logr.LogSink   { return s }

func (s *gateNames) Info(_ int, _ string, kv ...any) {
	for i := 0; i+1 < len(kv); i += 2 {
		if m, ok := kv[i+1].(map[featuregate.Feature]bool); ok && kv[i] == "featureGates" {
			s.names = slices.AppendSeq(s.names, maps.Keys(m))
		}
	}
}

// flattenConfiguration is cfg as JSON, flattened as
// kueuerelease.Defaults.EffectiveConfiguration is.
func flattenConfiguration(cfg *configapi.Configuration) (map[string]string, error) {
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("encoding the effective Kueue configuration: %w", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("encoding the effective Kueue configuration: %w", err)
	}
	out := map[string]string{}
	if err := flatten(out, "", doc); err != nil {
		return nil, fmt.Errorf("encoding the effective Kueue configuration: %w", err)
	}
	return out, nil
}

// flatten adds v's leaves to out under their dotted paths below prefix:
// scalars, lists and empty objects, each as its JSON.
func flatten(out map[string]string, prefix string, v any) error {
	if m, ok := v.(map[string]any); ok && len(m) > 0 {
		for k, sub := range m {
			path := k
			if prefix != "" {
				path = prefix + "." + k
			}
			if err := flatten(out, path, sub); err != nil {
				return err
			}
		}
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out[prefix] = string(data)
	return nil
}
