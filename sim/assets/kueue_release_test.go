package assets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// A release is this binary, a built sim-kueue-<release> beside it, or an
// error that says what is supported or how to build what is missing.
func TestKueueRelease(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "sim")
	other := filepath.Join(dir, "sim-kueue-v0.19.2")
	if err := os.WriteFile(other, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"v0.17.1", "0.17.1"} {
		if got, err := KueueRelease(want, "v0.17.1", self); got != "" || err != nil {
			t.Errorf("KueueRelease(%q) = %q, %v; want this binary", want, got, err)
		}
	}
	for _, want := range []string{"v0.19.2", "0.19.2"} {
		if got, err := KueueRelease(want, "v0.17.1", self); got != other || err != nil {
			t.Errorf("KueueRelease(%q) = %q, %v; want %s", want, got, err, other)
		}
	}
	_, err := KueueRelease("v0.15.0", "v0.17.1", self)
	if !errors.Is(err, ErrUnsupportedKueue) || !strings.Contains(err.Error(), "v0.17.1, v0.18.2, v0.19.2") {
		t.Errorf("an unsupported release: %v; want ErrUnsupportedKueue naming v0.17.1, v0.18.2, v0.19.2", err)
	}
	_, err = KueueRelease("v0.19.2", "v0.17.1", filepath.Join(t.TempDir(), "sim"))
	if err == nil || !strings.Contains(err.Error(), "make kueue-releases") {
		t.Errorf("a release not built: %v; want an error naming make kueue-releases", err)
	}
}

// Another release's sim finds go.mod's release in the sim it is built
// beside.
func TestKueueReleaseDefaultFromAnotherRelease(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "sim-kueue-v0.19.2")
	sim := filepath.Join(dir, "sim")
	if err := os.WriteFile(sim, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := KueueRelease(kueuerelease.Default, "v0.19.2", self); got != sim || err != nil {
		t.Errorf("KueueRelease(%s) from sim-kueue-v0.19.2 = %q, %v; want %s", kueuerelease.Default, got, err, sim)
	}
}
