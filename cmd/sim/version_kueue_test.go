//go:build integration

package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// sim version names the Kueue compiled into the binary, the release
// go.mod requires (test binaries carry no dependency list, so this reads
// the built sim).
func TestVersionNamesTheKueueItRuns(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*sigs\.k8s\.io/kueue (v\S+)`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod requires no sigs.k8s.io/kueue")
	}
	code, out := runSim(t, "version")
	if code != 0 {
		t.Fatalf("sim version exited %d:\n%s", code, out)
	}
	if want := "Kueue (in-process)       " + string(m[1]); !strings.Contains(out, want) {
		t.Errorf("sim version lacks %q:\n%s", want, out)
	}
}
