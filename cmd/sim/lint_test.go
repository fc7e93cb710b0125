//go:build integration

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingpytorch "sigs.k8s.io/kueue/pkg/util/testingjobs/pytorchjob"

	"github.com/kueue-sim/kueue-sim/lint"
)

// simLint runs `sim lint args...` and returns its output and exit status.
func simLint(t *testing.T, bin string, args ...string) (string, int) {
	t.Helper()
	out, err := exec.Command(bin, append([]string{"lint"}, args...)...).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	default:
		t.Fatalf("running sim lint: %v", err)
		return "", 0
	}
}

// TestLintExitStatus runs `sim lint`: 2 when it cannot read, 0 on a fresh
// `sim up`, 1 with a finding there.
func TestLintExitStatus(t *testing.T) {
	bin := buildSim(t)
	t.Run("what it cannot read", func(t *testing.T) { lintUnreadable(t, bin) })
	t.Run("a live cluster", func(t *testing.T) { lintLive(t, bin) })
}

func lintLive(t *testing.T, bin string) {
	runRoot := t.TempDir()
	up := startUp(t, bin, runRoot)
	defer func() {
		_ = up.cmd.Process.Signal(syscall.SIGINT)
		_ = up.wait(t)
	}()
	kubeconfig := filepath.Join(runRoot, "kubeconfig")

	out, code := simLint(t, bin, "--kubeconfig", kubeconfig)
	if code != 0 || !strings.Contains(out, "no findings") {
		t.Fatalf("sim lint on a fresh control plane: exit %d, want 0:\n%s", code, out)
	}

	c, err := lint.Connect(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}
	job := testingpytorch.MakePyTorchJob("train", "team-a").PyTorchReplicaSpecsDefault().Queue("nope").Obj()
	if err := c.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, job); err != nil {
		t.Fatal(err)
	}
	out, code = simLint(t, bin, "--kubeconfig", kubeconfig)
	if code != 1 || !strings.Contains(out, `PyTorchJob team-a/train [localQueue]: names LocalQueue "nope"`) {
		t.Errorf("sim lint with a job on a missing LocalQueue: exit %d, want 1 and the finding:\n%s", code, out)
	}
}

func lintUnreadable(t *testing.T, bin string) {
	missing := filepath.Join(t.TempDir(), "no-such-kubeconfig")
	if out, code := simLint(t, bin, "--kubeconfig", missing); code != 2 {
		t.Errorf("sim lint with a missing kubeconfig: exit %d, want 2:\n%s", code, out)
	}
	scenario := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := os.WriteFile(scenario, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, code := simLint(t, bin, scenario); code != 2 || !strings.Contains(out, "is not a valid scenario") {
		t.Errorf("sim lint on an invalid scenario file: exit %d, want 2 and the scenario's problems:\n%s", code, out)
	}
}
