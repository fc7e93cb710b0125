package kueuerelease

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kinds of Change.
const (
	// KindFeatureGateDefault: a gate both releases have takes another value
	// in the new one, as the new release's configuration does not pin it.
	KindFeatureGateDefault = "FeatureGateDefault"
	// KindFeatureGateRemoved: the old release has the gate, the new one
	// does not.
	KindFeatureGateRemoved = "FeatureGateRemoved"
	// KindFeatureGateAdded: the new release adds a gate on by default.
	KindFeatureGateAdded = "FeatureGateAdded"
	// KindDefault: a setting of the effective Configuration differs, as
	// waitForPodsReady does between v0.18 and v0.19.
	KindDefault = "Default"
)

// Change is one thing the new release reads differently in the user's
// configuration: From and To are the values in the old and new release
// ("" where a release has none), Detail one sentence with the fix.
type Change struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Detail string `json:"detail"`
}

// Changes compares what two releases read from one configuration, from
// the old release to the new, sorted by kind and name. A gate added off
// by default changes nothing and is left out, as is a gate the
// configuration sets for one release alone; a setting it gives one
// release alone is listed, as that release reads it.
func Changes(from, to Defaults) []Change {
	var out []Change
	out = append(out, gateChanges(from, to)...)
	out = append(out, waitForPodsReadyChanges(from, to)...)
	out = append(out, settingChanges(from, to)...)
	slices.SortFunc(out, func(a, b Change) int {
		return cmp.Or(strings.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
	})
	return out
}

func gateChanges(from, to Defaults) []Change {
	var out []Change
	fromMinor, toMinor := Minor(from.KueueVersion), Minor(to.KueueVersion)
	for _, f := range from.FeatureGates {
		was := gateValue(from, f)
		t, ok := to.Gate(f.Name)
		if !ok {
			c := Change{Kind: KindFeatureGateRemoved, Name: f.Name, From: strconv.FormatBool(was)}
			if _, set := from.ConfiguredFeatureGates[f.Name]; set {
				c.Detail = fmt.Sprintf("The configuration sets %s, which %s no longer has and refuses: move it from cluster.kueue featureGates to cluster.kueueReleases under %s.",
					f.Name, to.KueueVersion, fromMinor)
			} else {
				c.Detail = fmt.Sprintf("%s has no %s gate, which %s had (%s): its code decides that behaviour now, see its release notes.",
					to.KueueVersion, f.Name, from.KueueVersion, stage(f))
			}
			out = append(out, c)
			continue
		}
		if _, pinned := to.ConfiguredFeatureGates[f.Name]; pinned || t.Default == was {
			continue
		}
		c := Change{Kind: KindFeatureGateDefault, Name: f.Name, From: strconv.FormatBool(was), To: strconv.FormatBool(t.Default)}
		switch _, pinnedBefore := from.ConfiguredFeatureGates[f.Name]; {
		case t.Locked:
			c.Detail = fmt.Sprintf("%s has %s %s and locked (%s), where %s had it %s: the old behaviour cannot be kept.",
				to.KueueVersion, f.Name, onOff(t.Default), t.PreRelease, from.KueueVersion, onOff(was))
		case pinnedBefore:
			c.Detail = fmt.Sprintf("The configuration sets %s: %t for %s but not for %s, which has it %s by default: pin it in cluster.kueue featureGates (or cluster.kueueReleases under %s) to keep it %s.",
				f.Name, was, from.KueueVersion, to.KueueVersion, onOff(t.Default), toMinor, onOff(was))
		default:
			c.Detail = fmt.Sprintf("%s turns %s %s by default, where %s had it %s: pin %s: %t in cluster.kueue featureGates (or cluster.kueueReleases under %s) to keep the old behaviour.",
				to.KueueVersion, f.Name, onOff(t.Default), from.KueueVersion, onOff(was), f.Name, was, toMinor)
		}
		out = append(out, c)
	}
	for _, t := range to.FeatureGates {
		if _, ok := from.Gate(t.Name); ok || !t.Default {
			continue
		}
		if _, pinned := to.ConfiguredFeatureGates[t.Name]; pinned {
			continue
		}
		c := Change{Kind: KindFeatureGateAdded, Name: t.Name, To: "true"}
		if t.Locked {
			c.Detail = fmt.Sprintf("%s adds %s, on and locked (%s): it cannot be turned off.", to.KueueVersion, t.Name, t.PreRelease)
		} else {
			c.Detail = fmt.Sprintf("%s adds %s, on by default (%s): pin %s: false in cluster.kueueReleases under %s to keep it off.",
				to.KueueVersion, t.Name, t.PreRelease, t.Name, toMinor)
		}
		out = append(out, c)
	}
	return out
}

// gateValue is g's value in d: the configuration's, else the default.
func gateValue(d Defaults, g FeatureGate) bool {
	if v, set := d.ConfiguredFeatureGates[g.Name]; set {
		return v
	}
	return g.Default
}

func waitForPodsReadyChanges(from, to Defaults) []Change {
	f, t := from.WaitForPodsReady, to.WaitForPodsReady
	switch {
	case f.Enabled == t.Enabled && (!f.Enabled || f.Timeout == t.Timeout):
		return nil
	case f.Enabled && t.Enabled:
		return []Change{{
			Kind: KindDefault, Name: "waitForPodsReady.timeout", From: f.Timeout, To: t.Timeout,
			Detail: fmt.Sprintf("%s waits %s for a workload's pods to be ready, where %s waited %s: set waitForPodsReady.timeout in cluster.kueue to keep %s.",
				to.KueueVersion, t.Timeout, from.KueueVersion, f.Timeout, f.Timeout),
		}}
	}
	c := Change{Kind: KindDefault, Name: "waitForPodsReady.enabled", From: strconv.FormatBool(f.Enabled), To: strconv.FormatBool(t.Enabled)}
	if t.Enabled {
		c.Detail = fmt.Sprintf("%s waits for admitted workloads' pods to be ready and evicts a workload whose pods are not ready within %s, where %s does not wait%s.",
			to.KueueVersion, t.Timeout, from.KueueVersion, waitForPodsReadyFix(to))
	} else {
		c.Detail = fmt.Sprintf("%s no longer waits for pods to be ready, where %s did (timeout %s): configure waitForPodsReady in cluster.kueueReleases under %s to keep waiting.",
			to.KueueVersion, from.KueueVersion, f.Timeout, Minor(to.KueueVersion))
	}
	return []Change{c}
}

// waitForPodsReadyFix says how to keep the old release's behaviour in d's
// release: with the gates of d named for waitForPodsReady, which Kueue
// reads beside the Configuration, when it has any.
func waitForPodsReadyFix(d Defaults) string {
	var names []string
	for _, g := range d.FeatureGates {
		if strings.Contains(g.Name, "WaitForPodsReady") && !g.Locked {
			names = append(names, g.Name)
		}
	}
	minor := Minor(d.KueueVersion)
	if len(names) == 0 {
		return fmt.Sprintf(": configure waitForPodsReady in cluster.kueueReleases under %s to choose", minor)
	}
	return fmt.Sprintf(": its feature gate %s decides that, pin it in cluster.kueueReleases under %s to keep the old behaviour",
		strings.Join(names, ", "), minor)
}

// settingChanges are the differences between the effective
// Configurations (each release's defaults, or the scenario's settings for
// that release) but for featureGates (gateChanges) and whether
// waitForPodsReady is in effect and its timeout (waitForPodsReadyChanges).
func settingChanges(from, to Defaults) []Change {
	paths := map[string]bool{}
	for p := range from.EffectiveConfiguration {
		paths[p] = true
	}
	for p := range to.EffectiveConfiguration {
		paths[p] = true
	}
	var out []Change
	for p := range paths {
		if under(p, "featureGates") || p == "waitForPodsReady.timeout" || p == "waitForPodsReady.enable" {
			continue
		}
		// waitForPodsReady's other fields matter only where both releases
		// wait for pods; whether they do is waitForPodsReadyChanges'.
		if under(p, "waitForPodsReady") && !(from.WaitForPodsReady.Enabled && to.WaitForPodsReady.Enabled) {
			continue
		}
		f, inFrom := from.EffectiveConfiguration[p]
		t, inTo := to.EffectiveConfiguration[p]
		if inFrom == inTo && f == t {
			continue
		}
		c := Change{Kind: KindDefault, Name: p, From: f, To: t}
		switch {
		case !inFrom:
			c.Detail = fmt.Sprintf("%s adds %s, defaulted to %s: set it in cluster.kueueReleases under %s to choose another value.",
				to.KueueVersion, p, t, Minor(to.KueueVersion))
		case !inTo:
			c.Detail = fmt.Sprintf("%s has no %s, which %s set to %s: its code decides that now, see its release notes.",
				to.KueueVersion, p, from.KueueVersion, f)
		default:
			c.Detail = fmt.Sprintf("%s reads %s as %s, where %s read %s: set it in cluster.kueue to keep %s.",
				to.KueueVersion, p, t, from.KueueVersion, f, f)
		}
		out = append(out, c)
	}
	return out
}

// under tells whether the dotted path is section or lies within it.
func under(path, section string) bool {
	return path == section || strings.HasPrefix(path, section+".")
}

// stage is g's stage and default: "GA, locked on", "Alpha, off by default".
func stage(g FeatureGate) string {
	if g.Locked {
		return fmt.Sprintf("%s, locked %s", g.PreRelease, onOff(g.Default))
	}
	return fmt.Sprintf("%s, %s by default", g.PreRelease, onOff(g.Default))
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
