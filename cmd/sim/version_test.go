package main

import (
	"os"
	"regexp"
	"testing"
)

// The release sim version names is the newest release CHANGELOG.md records.
func TestReleaseIsTheChangelogs(t *testing.T) {
	data, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+)\]`).FindSubmatch(data)
	if m == nil {
		t.Fatal("CHANGELOG.md has no release heading (## [X.Y.Z] - DATE)")
	}
	if got := string(m[1]); got != release {
		t.Errorf("CHANGELOG.md's newest release is %s, sim version says %s: change release in version.go with the changelog", got, release)
	}
}
