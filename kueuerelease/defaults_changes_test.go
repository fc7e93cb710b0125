package kueuerelease

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestChanges(t *testing.T) {
	from := Defaults{
		KueueVersion: "v0.18.2",
		FeatureGates: []FeatureGate{
			{Name: "Flipped", Default: false, PreRelease: Alpha},
			{Name: "Pinned", Default: false, PreRelease: Alpha},
			{Name: "PinnedBefore", Default: false, PreRelease: Alpha},
			{Name: "Same", Default: true, PreRelease: Beta},
			{Name: "Gone", Default: true, PreRelease: GA, Locked: true},
			{Name: "GoneButSet", Default: false, PreRelease: Alpha},
			{Name: "NowLocked", Default: false, PreRelease: Beta},
		},
		ConfiguredFeatureGates: map[string]bool{"PinnedBefore": true, "GoneButSet": true},
		WaitForPodsReady:       WaitForPodsReady{},
		EffectiveConfiguration: map[string]string{
			"clientConnection.qps": "20",
			"namespace":            `"kueue-system"`,
			"old.field":            "1",
		},
	}
	to := Defaults{
		KueueVersion: "v0.19.2",
		FeatureGates: []FeatureGate{
			{Name: "Flipped", Default: true, PreRelease: Beta},
			{Name: "Pinned", Default: true, PreRelease: Beta},
			{Name: "PinnedBefore", Default: false, PreRelease: Alpha},
			{Name: "Same", Default: true, PreRelease: GA},
			{Name: "NowLocked", Default: true, PreRelease: GA, Locked: true},
			{Name: "NewOn", Default: true, PreRelease: Beta},
			{Name: "NewOff", Default: false, PreRelease: Alpha},
			{Name: "DisableWaitForPodsReady", Default: false, PreRelease: Alpha},
		},
		ConfiguredFeatureGates: map[string]bool{"Pinned": false},
		WaitForPodsReady:       WaitForPodsReady{Enabled: true, Timeout: "30m0s"},
		EffectiveConfiguration: map[string]string{
			"clientConnection.qps":            "300",
			"namespace":                       `"kueue-system"`,
			"new.field":                       "2",
			"waitForPodsReady.timeout":        `"30m0s"`,
			"featureGates.Pinned":             "false",
			"waitForPodsReady.blockAdmission": "false",
		},
	}
	got := Changes(from, to)
	want := []Change{
		{Kind: KindDefault, Name: "clientConnection.qps", From: "20", To: "300"},
		{Kind: KindDefault, Name: "new.field", To: "2"},
		{Kind: KindDefault, Name: "old.field", From: "1"},
		{Kind: KindDefault, Name: "waitForPodsReady.enabled", From: "false", To: "true"},
		{Kind: KindFeatureGateAdded, Name: "NewOn", To: "true"},
		{Kind: KindFeatureGateDefault, Name: "Flipped", From: "false", To: "true"},
		{Kind: KindFeatureGateDefault, Name: "NowLocked", From: "false", To: "true"},
		{Kind: KindFeatureGateDefault, Name: "PinnedBefore", From: "true", To: "false"},
		{Kind: KindFeatureGateRemoved, Name: "Gone", From: "true"},
		{Kind: KindFeatureGateRemoved, Name: "GoneButSet", From: "true"},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Change{}, "Detail")); diff != "" {
		t.Fatalf("Changes (-want +got):\n%s", diff)
	}
	details := map[string][]string{
		"Flipped":                  {"v0.19.2 turns Flipped on", "pin Flipped: false", "cluster.kueueReleases under v0.19"},
		"NowLocked":                {"locked", "cannot be kept"},
		"PinnedBefore":             {"sets PinnedBefore: true for v0.18.2 but not for v0.19.2"},
		"Gone":                     {"v0.19.2 has no Gone gate", "GA, locked on"},
		"GoneButSet":               {"refuses", "cluster.kueueReleases under v0.18"},
		"NewOn":                    {"pin NewOn: false in cluster.kueueReleases under v0.19"},
		"waitForPodsReady.enabled": {"within 30m0s", "DisableWaitForPodsReady"},
		"clientConnection.qps":     {"set it in cluster.kueue to keep 20"},
	}
	for _, c := range got {
		for _, part := range details[c.Name] {
			if !strings.Contains(c.Detail, part) {
				t.Errorf("%s %s: detail %q lacks %q", c.Kind, c.Name, c.Detail, part)
			}
		}
		if !strings.HasSuffix(c.Detail, ".") {
			t.Errorf("%s %s: detail %q is not a sentence", c.Kind, c.Name, c.Detail)
		}
	}
}

func TestChangesOfOneReleaseAreNone(t *testing.T) {
	d := Defaults{
		KueueVersion:           "v0.19.2",
		FeatureGates:           []FeatureGate{{Name: "A", Default: true, PreRelease: Beta}},
		WaitForPodsReady:       WaitForPodsReady{Enabled: true, Timeout: "30m0s"},
		ConfiguredFeatureGates: map[string]bool{"A": false},
		EffectiveConfiguration: map[string]string{"namespace": `"kueue-system"`},
	}
	if got := Changes(d, d); len(got) != 0 {
		t.Errorf("Changes(d, d) = %v, want none", got)
	}
}

func TestWaitForPodsReadyChanges(t *testing.T) {
	on := func(timeout string) Defaults {
		return Defaults{KueueVersion: "v0.19.2", WaitForPodsReady: WaitForPodsReady{Enabled: true, Timeout: timeout}}
	}
	off := Defaults{KueueVersion: "v0.18.2"}
	for name, c := range map[string]struct {
		from, to Defaults
		want     []Change
	}{
		"timeout differs": {
			from: on("10m0s"), to: on("30m0s"),
			want: []Change{{Kind: KindDefault, Name: "waitForPodsReady.timeout", From: "10m0s", To: "30m0s"}},
		},
		"turned off": {
			from: on("10m0s"), to: off,
			want: []Change{{Kind: KindDefault, Name: "waitForPodsReady.enabled", From: "true", To: "false"}},
		},
		"off in both": {from: off, to: off},
	} {
		t.Run(name, func(t *testing.T) {
			got := Changes(c.from, c.to)
			if diff := cmp.Diff(c.want, got, cmpopts.IgnoreFields(Change{}, "Detail"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Changes (-want +got):\n%s", diff)
			}
			for _, ch := range got {
				if ch.Detail == "" {
					t.Errorf("%s: no detail", ch.Name)
				}
			}
		})
	}
}
