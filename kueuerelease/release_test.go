package kueuerelease

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		key, release string
		want         bool
	}{
		{"v0.19", "v0.19.2", true},
		{"v0.19.2", "v0.19.2", true},
		{"v0.19.1", "v0.19.2", false},
		{"v0.1", "v0.19.2", false},
		{"v0.17", "v0.19.2", false},
	} {
		if got := Matches(c.key, c.release); got != c.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", c.key, c.release, got, c.want)
		}
	}
}

func TestParseKey(t *testing.T) {
	for _, ok := range []string{"v0.19", "v0.19.2", "v1.0"} {
		if err := ParseKey(ok); err != nil {
			t.Errorf("ParseKey(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"0.19", "v0.19.x", "v0", "", "v0.19.2-rc.1", "v00.19"} {
		if err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted it", bad)
		}
	}
}

// TestCompiledIsPinned checks that the release this build names is the
// one a module file pins: go.mod, or hack/kueue/<release>.mod.
func TestCompiledIsPinned(t *testing.T) {
	file := filepath.Join("..", "hack", "kueue", compiled+".mod")
	if _, err := os.Stat(file); err != nil {
		file = filepath.Join("..", "go.mod")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*sigs\.k8s\.io/kueue (v\S+)`).FindSubmatch(data)
	if m == nil || string(m[1]) != compiled {
		t.Errorf("this build names Kueue %s, %s requires %q", compiled, file, m)
	}
	if !slices.Contains(Supported, compiled) {
		t.Errorf("Supported %v lacks this build's release %s", Supported, compiled)
	}
}

// TestSupportedAreBuilt checks that Supported is go.mod's release and one
// per module file under hack/kueue, and that the Makefile builds those.
func TestSupportedAreBuilt(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*sigs\.k8s\.io/kueue (v\S+)`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod requires no sigs.k8s.io/kueue")
	}
	mods, err := filepath.Glob(filepath.Join("..", "hack", "kueue", "*.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if string(m[1]) != Default {
		t.Errorf("Default is %s, go.mod requires %s: make them agree", Default, m[1])
	}
	want := []string{string(m[1])}
	for _, f := range mods {
		want = append(want, filepath.Base(f[:len(f)-len(".mod")]))
	}
	got := slices.Sorted(slices.Values(Supported))
	if slices.Sort(want); !slices.Equal(got, want) {
		t.Errorf("Supported %v, go.mod and hack/kueue %v: make them agree", got, want)
	}
	makefile, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	mk := regexp.MustCompile(`(?m)^KUEUE_RELEASES \?= (.*)$`).FindSubmatch(makefile)
	if mk == nil {
		t.Fatal("the Makefile sets no KUEUE_RELEASES")
	}
	fromMake := append([]string{string(m[1])}, strings.Fields(string(mk[1]))...)
	if slices.Sort(fromMake); !slices.Equal(got, fromMake) {
		t.Errorf("Supported %v, go.mod and the Makefile's KUEUE_RELEASES %v: make them agree", got, fromMake)
	}
}

func TestResolve(t *testing.T) {
	newest := Supported[len(Supported)-1]
	for key, want := range map[string]string{
		Minor(newest): newest, newest: newest, newest[1:]: newest, "v0.15": "", "v0.19.x": "",
	} {
		got, ok := Resolve(key)
		if got != want || ok != (want != "") {
			t.Errorf("Resolve(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
}
