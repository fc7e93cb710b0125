package simrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A child's exit code is its result, its output is in the log.
func TestRunExitCodeAndLog(t *testing.T) {
	log := filepath.Join(t.TempDir(), "run.log")
	res, err := Run(context.Background(), "/bin/sh", log, "-c", "echo out; echo err >&2; exit 3")
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || res.Log != log {
		t.Errorf("result %+v, want exit code 3 and log %s", res, log)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data); !strings.Contains(got, "out") || !strings.Contains(got, "err") {
		t.Errorf("log %q lacks the child's output", got)
	}
}

// Stopping the caller tells the child to stop with SIGTERM, which it may
// handle (as `sim run` stops its control plane); the result is an error
// that says the run was stopped.
func TestRunStopsChildWithSIGTERM(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "run.log")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res, err := Run(ctx, "/bin/sh", log, "-c", `trap 'echo stopping; exit 1' TERM; while :; do sleep 0.05; done`)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if res.ExitCode != -1 {
		t.Errorf("exit code %d, want -1 for a stopped run", res.ExitCode)
	}
	data, _ := os.ReadFile(log)
	if !strings.Contains(string(data), "stopping") {
		t.Errorf("the child did not get SIGTERM: log %q", data)
	}
}

// A child that cannot start is an error.
func TestRunMissingBinary(t *testing.T) {
	_, err := Run(context.Background(), filepath.Join(t.TempDir(), "no-sim"), filepath.Join(t.TempDir(), "run.log"))
	if err == nil {
		t.Fatal("no error for a missing binary")
	}
}
