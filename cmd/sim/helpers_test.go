package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// runSim runs the sim binary and returns its exit code and output.
func runSim(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(buildSim(t), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = append(os.Environ(), "KUEUESIM_RUN_ROOT="+t.TempDir())
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String()
	}
	t.Fatalf("running sim %v: %v", args, err)
	return 0, ""
}

// writeVariant copies a scenario with one line replaced, failing the test if
// the line is not there.
func writeVariant(t *testing.T, from, old, replacement string) string {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s no longer contains %q: update this test", from, old)
	}
	path := filepath.Join(t.TempDir(), filepath.Base(from))
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, replacement, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// readEvents reads an events.jsonl or decisions.jsonl.
func readEvents(t *testing.T, path string) []record.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := record.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return events
}
