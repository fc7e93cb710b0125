package bench

import (
	"strings"
	"testing"
)

func TestGCSettings(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{env: nil, want: ""},
		{env: map[string]string{"GOGC": "200"}, want: "GOGC=200"},
		{env: map[string]string{"GOMEMLIMIT": "1GiB"}, want: "GOMEMLIMIT=1GiB"},
		{env: map[string]string{"GOGC": "off", "GOMEMLIMIT": "3GiB", "HOME": "/root"}, want: "GOGC=off GOMEMLIMIT=3GiB"},
	} {
		if got := gcSettings(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("gcSettings(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestFiguresNameGCSettings(t *testing.T) {
	f := Figures{Scenario: "s", Workloads: 1, Wall: 1, GC: "GOGC=200"}
	if s := f.String(); !strings.Contains(s, "finished kept GOGC=200 ") {
		t.Errorf("Figures.String() = %q, want the GC settings after finished", s)
	}
	f.GC = ""
	if s := f.String(); strings.Contains(s, "GOGC") {
		t.Errorf("Figures.String() = %q, want no GC settings under Go's defaults", s)
	}
}
