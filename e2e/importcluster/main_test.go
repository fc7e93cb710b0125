//go:build e2e

package importcluster

import (
	"os"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"github.com/kueue-sim/kueue-sim/e2e/suite"
)

const clusterName = "kueue-sim-e2e-import"

var testenv env.Environment

// TestMain makes a bare KWOK cluster of its own: the replay below is left
// on it (--keep) for `sim import cluster` to read, and would be in the way
// of other suites' runs.
func TestMain(m *testing.M) {
	testenv = env.NewWithConfig(envconf.New())
	create, destroy := suite.Kwok(clusterName)
	testenv.Setup(create)
	testenv.Finish(destroy)
	os.Exit(testenv.Run(m))
}
