//go:build integration

package bench

import (
	"context"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/procs"
)

// An interrupted benchmark (Ctrl-C, go test's -timeout, a cancelled
// context) must not leave a control plane behind: the measured run's
// process stops its own before it exits.
func TestSpawnedRunStopsItsControlPlaneWhenCancelled(t *testing.T) {
	root := t.TempDir()
	t.Setenv(procs.EnvRunRoot, root) // the child inherits it
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := Spawn(ctx, Spec{Scenario: "../scenarios/multi-team-fair-sharing.yaml"})
		errc <- err
	}()
	// etcd, kube-apiserver, kube-scheduler and kube-controller-manager all
	// name the run folder on their command lines.
	deadline := time.After(3 * time.Minute)
	for len(procs.CmdlinesContaining(root)) < 4 {
		select {
		case err := <-errc:
			t.Fatalf("the run ended before it could be cancelled (err %v)", err)
		case <-deadline:
			t.Fatalf("the control plane did not start within 3 minutes; running: %v", procs.CmdlinesContaining(root))
		case <-time.After(200 * time.Millisecond):
		}
	}
	cancel()
	select {
	case err := <-errc:
		if err == nil {
			t.Error("a cancelled run reported figures")
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not end within 2 minutes of being cancelled")
	}
	if left := procs.CmdlinesContaining(root); len(left) > 0 {
		t.Errorf("processes of the cancelled run still alive: %v", left)
	}
}
