package main

import (
	"context"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/harness"
)

// A flag meant for the other target is refused before anything starts,
// with exit code 2 and a message in sim run's flags.
func TestTargetFlagsForTheOtherTarget(t *testing.T) {
	for _, c := range []struct {
		flags targetFlags
		want  string
	}{
		{targetFlags{kwokNodes: true}, "--kwok-nodes works only with --kubeconfig (a replay on an existing cluster): add --kubeconfig PATH or drop --kwok-nodes"},
		{targetFlags{prefix: "ks-"}, "--namespace-prefix works only with --kubeconfig (a replay on an existing cluster): add --kubeconfig PATH or drop --namespace-prefix"},
		{targetFlags{keep: true}, "--keep works only with --kubeconfig (a replay on an existing cluster): add --kubeconfig PATH or drop --keep"},
		{targetFlags{kubeconfig: "kubeconfig", slowKueue: time.Second}, "--slow-kueue works only on the embedded control plane: drop --kubeconfig or --slow-kueue"},
	} {
		_, err := harness.Run(context.Background(), &scenarios.Scenario{Name: "conflict"}, c.flags.options()...)
		err = targetError(err)
		if err == nil || exitCode(err) != 2 || err.Error() != c.want {
			t.Errorf("%+v: error %v (exit code %d), want exit code 2 and %q", c.flags, err, exitCode(err), c.want)
		}
	}
}
