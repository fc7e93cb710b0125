//go:build e2e

package scenario

import (
	"os"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"github.com/kueue-sim/kueue-sim/e2e/suite"
)

const clusterName = "kueue-sim-e2e-scenario"

var testenv env.Environment

// TestMain makes a bare KWOK cluster: `sim run --kubeconfig` connects Kueue
// and the platform itself, on the run's virtual clock, and makes the
// scenario's nodes.
func TestMain(m *testing.M) {
	testenv = env.NewWithConfig(envconf.New())
	create, destroy := suite.Kwok(clusterName)
	testenv.Setup(create)
	testenv.Finish(destroy)
	os.Exit(testenv.Run(m))
}
