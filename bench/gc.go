package bench

import (
	"os"
	"strings"
)

// gcSettings names the Go garbage-collector settings the measured process
// tree runs with: GOGC and GOMEMLIMIT from the environment, which `sim`,
// kube-apiserver, etcd and Kueue's harness all inherit. It is empty under
// Go's defaults. GOGC=200 trades memory for CPU across the whole tree
// (README, "Performance"), so a figure taken with it says so.
func gcSettings(getenv func(string) string) string {
	var s []string
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v := getenv(k); v != "" {
			s = append(s, k+"="+v)
		}
	}
	return strings.Join(s, " ")
}

// environmentGC is gcSettings of this process's environment.
func environmentGC() string { return gcSettings(os.Getenv) }

// gcNote is ", GOGC=…" for a log line, or empty under Go's defaults.
func gcNote() string {
	if s := environmentGC(); s != "" {
		return ", " + s
	}
	return ""
}
