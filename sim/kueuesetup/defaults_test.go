package kueuesetup

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kueue/pkg/features"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// defaultsOf is Defaults of a Configuration body below its apiVersion and
// kind; it sets Kueue's process-wide gates back to their defaults after
// the test, for the tests that follow.
func defaultsOf(t *testing.T, body string) (kueuerelease.Defaults, error) {
	t.Helper()
	t.Cleanup(func() {
		gates, err := featureGates()
		if err != nil {
			t.Fatal(err)
		}
		if err := resetFeatureGates(gates); err != nil {
			t.Fatal(err)
		}
	})
	return Defaults("kueue.yaml", []byte(defaultConfig+body))
}

func TestDefaultsReadsKueuesGates(t *testing.T) {
	d, err := defaultsOf(t, "")
	if err != nil {
		t.Fatal(err)
	}
	if d.KueueVersion != kueuerelease.Compiled() {
		t.Errorf("kueueVersion %q, want %q", d.KueueVersion, kueuerelease.Compiled())
	}
	names := make([]string, len(d.FeatureGates))
	for i, g := range d.FeatureGates {
		names[i] = g.Name
	}
	if !slices.IsSorted(names) {
		t.Errorf("feature gates are not sorted by name: %v", names)
	}
	g, ok := d.Gate("PartialAdmission")
	if !ok {
		t.Fatalf("no PartialAdmission gate among %v", names)
	}
	if want := (kueuerelease.FeatureGate{Name: "PartialAdmission", Default: true, PreRelease: kueuerelease.Beta}); g != want {
		t.Errorf("PartialAdmission %+v, want %+v", g, want)
	}
	// The registry holds other components' gates too, which are not Kueue's.
	for _, other := range []string{"AllAlpha", "AllBeta", "RayJobDeletionPolicy"} {
		if _, ok := d.Gate(other); ok {
			t.Errorf("%s is reported as a Kueue gate", other)
		}
	}
	if len(d.ConfiguredFeatureGates) != 0 {
		t.Errorf("configured gates %v, want none", d.ConfiguredFeatureGates)
	}
	if got := d.EffectiveConfiguration["integrations.frameworks"]; !strings.Contains(got, `"batch/job"`) {
		t.Errorf("effective integrations.frameworks %q, want kueue-sim's defaults", got)
	}
}

func TestDefaultsReportsConfiguredGates(t *testing.T) {
	d, err := defaultsOf(t, "featureGates:\n  PartialAdmission: false\n")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{"PartialAdmission": false}, d.ConfiguredFeatureGates); diff != "" {
		t.Errorf("configured gates (-want +got):\n%s", diff)
	}
	// The gate table holds defaults, whatever the configuration sets.
	if g, _ := d.Gate("PartialAdmission"); !g.Default {
		t.Errorf("PartialAdmission default %v after the configuration turned it off, want true", g.Default)
	}
}

// TestDefaultsForgetsEarlierGates checks that a call reads its own
// Configuration's gates, not those an earlier call set.
func TestDefaultsForgetsEarlierGates(t *testing.T) {
	if _, err := defaultsOf(t, "featureGates:\n  PartialAdmission: false\n"); err != nil {
		t.Fatal(err)
	}
	if features.Enabled(features.PartialAdmission) {
		t.Fatal("PartialAdmission is on after a configuration turned it off")
	}
	if _, err := defaultsOf(t, ""); err != nil {
		t.Fatal(err)
	}
	if !features.Enabled(features.PartialAdmission) {
		t.Error("PartialAdmission stays off for a configuration that does not set it")
	}
}

// TestDefaultsRefusesBadConfiguration refuses a field Kueue does not
// know. A gate it does not know would be refused too, but would leave
// the process-wide registry refusing every later setting (see Defaults),
// so no test here sets one.
func TestDefaultsRefusesBadConfiguration(t *testing.T) {
	_, err := defaultsOf(t, "waitForPodsReady:\n  nonsense: true\n")
	if err == nil || !strings.Contains(err.Error(), "kueue.yaml") || !strings.Contains(err.Error(), "nonsense") {
		t.Errorf("Defaults: %v, want an error naming kueue.yaml and the field", err)
	}
}

// TestDefaultsWaitForPodsReady checks waitForPodsReady as this release
// decides it, in the cases its test twin (kueue_v01*_test.go) lists.
func TestDefaultsWaitForPodsReady(t *testing.T) {
	for _, c := range waitForPodsReadyCases {
		name := c.body
		if name == "" {
			name = "empty"
		}
		t.Run(name, func(t *testing.T) {
			d, err := defaultsOf(t, c.body)
			if err != nil {
				t.Fatal(err)
			}
			if d.WaitForPodsReady != c.want {
				t.Errorf("waitForPodsReady %+v, want %+v", d.WaitForPodsReady, c.want)
			}
		})
	}
}

func TestFlatten(t *testing.T) {
	out := map[string]string{}
	doc := map[string]any{
		"a":     map[string]any{"b": 1.0, "c": map[string]any{"d": "x"}},
		"list":  []any{"p", "q"},
		"empty": map[string]any{},
	}
	if err := flatten(out, "", doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.b": "1", "a.c.d": `"x"`, "list": `["p","q"]`, "empty": "{}"}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("flatten (-want +got):\n%s", diff)
	}
}
