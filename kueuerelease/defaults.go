package kueuerelease

// Defaults is what one Kueue release reads from a Configuration: its
// feature gates with their defaults, whether waitForPodsReady is in effect,
// the gates the Configuration sets, and the Configuration as the release
// completes it with its defaults. A binary reports its own (sim
// kueue-defaults, read from the Kueue compiled in), so comparing two
// releases (Changes) compares what their code says, not a table kept by
// hand. It holds no Kueue types: this package stays free of Kueue imports.
type Defaults struct {
	// KueueVersion is the release that reported these, such as v0.19.2.
	KueueVersion string `json:"kueueVersion"`
	// FeatureGates are every Kueue feature gate of the release, sorted by
	// name, with the spec in effect for it.
	FeatureGates []FeatureGate `json:"featureGates"`
	// WaitForPodsReady is whether the release waits for pods to be ready
	// with the Configuration given, as the release decides it.
	WaitForPodsReady WaitForPodsReady `json:"waitForPodsReady"`
	// ConfiguredFeatureGates are the gates the Configuration sets
	// explicitly; a gate set there keeps its value whatever the default.
	ConfiguredFeatureGates map[string]bool `json:"configuredFeatureGates"`
	// EffectiveConfiguration is the Configuration after the release's
	// defaults, flattened: each leaf's dotted path (clientConnection.qps)
	// to its JSON value (300). Lists are leaves.
	EffectiveConfiguration map[string]string `json:"effectiveConfiguration,omitempty"`
}

// FeatureGate is one Kueue feature gate: its default, its maturity and
// whether the default can be changed.
type FeatureGate struct {
	Name    string `json:"name"`
	Default bool   `json:"default"`
	// PreRelease is Alpha, Beta, GA or Deprecated.
	PreRelease string `json:"preRelease"`
	// Locked says the gate is locked to its default: a Configuration
	// setting it otherwise is refused.
	Locked bool `json:"locked"`
}

// WaitForPodsReady is whether Kueue waits for an admitted workload's pods
// to be ready, evicting it when they are not within Timeout.
type WaitForPodsReady struct {
	Enabled bool `json:"enabled"`
	// Timeout is set when Enabled, as a Go duration (30m0s).
	Timeout string `json:"timeout,omitempty"`
}

// Pre-release stages of a feature gate.
const (
	Alpha      = "Alpha"
	Beta       = "Beta"
	GA         = "GA"
	Deprecated = "Deprecated"
)

// Gate returns the gate named name, and whether d has it.
func (d Defaults) Gate(name string) (FeatureGate, bool) {
	for _, g := range d.FeatureGates {
		if g.Name == name {
			return g, true
		}
	}
	return FeatureGate{}, false
}
