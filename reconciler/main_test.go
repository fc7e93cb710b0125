//go:build integration

package reconciler_test

import (
	"testing"

	"github.com/kueue-sim/kueue-sim/reconciler"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
)

// cp is the control plane every test in this package shares: the Kueue
// operator's CRD is installed, so "the operator is installed". Tests run one
// at a time, each from a clean platform (reconcilertest.Platform).
var cp *cluster.ControlPlane

func TestMain(m *testing.M) {
	clustertest.Main(m, &cp, cluster.WithSetup(reconciler.SetupFunc()))
}
