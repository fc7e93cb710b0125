package main

import (
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// A release kueue-sim does not run is refused before any replay, with
// exit code 2 and the supported releases.
func TestUpgradeToUnsupportedReleaseExitsTwo(t *testing.T) {
	code, out := runSim(t, "upgrade", "../../scenarios/quickstart.yaml", "--from", kueuerelease.Default, "--to", "v0.15.0", "--report", t.TempDir())
	if code != 2 || !strings.Contains(out, "--to: unsupported Kueue release v0.15.0") {
		t.Errorf("exit code %d, want 2 and the release named:\n%s", code, out)
	}
}

// Rehearsing an upgrade to the release the cluster already runs is
// refused, with exit code 2.
func TestUpgradeToTheSameReleaseExitsTwo(t *testing.T) {
	code, out := runSim(t, "upgrade", "../../scenarios/quickstart.yaml", "--from", kueuerelease.Default, "--to", kueuerelease.Minor(kueuerelease.Default), "--report", t.TempDir())
	if code != 2 || !strings.Contains(out, "--from and --to both name Kueue "+kueuerelease.Default) {
		t.Errorf("exit code %d, want 2 and both flags named:\n%s", code, out)
	}
}
