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
	other := filepath.Join(dir, "sim-kueue-v0.17.1")
	if err := os.WriteFile(other, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"v0.19.2", "0.19.2"} {
		if got, err := KueueRelease(want, "v0.19.2", self, ""); got != "" || err != nil {
			t.Errorf("KueueRelease(%q) = %q, %v; want this binary", want, got, err)
		}
	}
	for _, want := range []string{"v0.17.1", "0.17.1"} {
		if got, err := KueueRelease(want, "v0.19.2", self, ""); got != other || err != nil {
			t.Errorf("KueueRelease(%q) = %q, %v; want %s", want, got, err, other)
		}
	}
	_, err := KueueRelease("v0.15.0", "v0.19.2", self, "")
	if !errors.Is(err, ErrUnsupportedKueue) || !strings.Contains(err.Error(), "v0.17.1, v0.18.2, v0.19.2") {
		t.Errorf("an unsupported release: %v; want ErrUnsupportedKueue naming v0.17.1, v0.18.2, v0.19.2", err)
	}
	_, err = KueueRelease("v0.17.1", "v0.19.2", filepath.Join(t.TempDir(), "sim"), t.TempDir())
	for _, want := range []string{"make kueue-releases", "sim tools install kueue@v0.17.1", "--install-tools"} {
		if !errors.Is(err, ErrKueueSimMissing) || !strings.Contains(err.Error(), want) {
			t.Errorf("a release not built: %v; want ErrKueueSimMissing naming %s", err, want)
		}
	}
}

// A release not beside this sim is looked up in the binary folder, where
// sim tools install kueue@<release> builds it: as sim-kueue-<release>, for
// go.mod's release too. One beside this sim comes first.
func TestKueueReleaseInTheBinaryFolder(t *testing.T) {
	self := filepath.Join(t.TempDir(), "sim-kueue-v0.17.1")
	bins := t.TempDir()
	for _, r := range []string{"v0.18.2", kueuerelease.Default} {
		if err := os.WriteFile(filepath.Join(bins, KueueSimName(r)), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"v0.18", "v0.18.2", kueuerelease.Default} {
		release, _ := kueuerelease.Resolve(want)
		if got, err := KueueRelease(want, "v0.17.1", self, bins); got != filepath.Join(bins, "sim-kueue-"+release) || err != nil {
			t.Errorf("KueueRelease(%s) = %q, %v; want sim-kueue-%s in the binary folder", want, got, err, release)
		}
	}
	if got, err := KueueRelease("v0.17.1", "v0.17.1", self, bins); got != "" || err != nil {
		t.Errorf("KueueRelease(own release) = %q, %v; want this binary", got, err)
	}
	beside := filepath.Join(filepath.Dir(self), "sim-kueue-v0.18.2")
	if err := os.WriteFile(beside, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := KueueRelease("v0.18.2", "v0.17.1", self, bins); got != beside || err != nil {
		t.Errorf("KueueRelease(v0.18.2) = %q, %v; want the one beside this sim, %s", got, err, beside)
	}
	// A file that is no executable does not count.
	if err := os.WriteFile(filepath.Join(bins, KueueSimName("v0.16.2")), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := KueueRelease("v0.16.2", "v0.17.1", self, bins); !errors.Is(err, ErrKueueSimMissing) {
		t.Errorf("KueueRelease(v0.16.2) with a non-executable file: %v; want ErrKueueSimMissing", err)
	}
}

// Another release's sim finds go.mod's release in the sim it is built
// beside.
func TestKueueReleaseDefaultFromAnotherRelease(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "sim-kueue-v0.17.1")
	sim := filepath.Join(dir, "sim")
	if err := os.WriteFile(sim, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := KueueRelease(kueuerelease.Default, "v0.17.1", self, ""); got != sim || err != nil {
		t.Errorf("KueueRelease(%s) from sim-kueue-v0.17.1 = %q, %v; want %s", kueuerelease.Default, got, err, sim)
	}
}
