//go:build e2e

package kwok

import (
	"os"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"github.com/kueue-sim/kueue-sim/e2e/features"
	"github.com/kueue-sim/kueue-sim/e2e/suite"
)

// clusterName is fixed so that a cluster left by a killed run is found and
// deleted before the next run.
const clusterName = "kueue-sim-e2e"

var (
	testenv env.Environment
	gpus    = features.Cluster{
		GPUModels: [2]string{"NVIDIA-A100-SXM4-80GB", "NVIDIA-H100-80GB-HBM3"},
		Image:     "registry.invalid/kueue-sim/e2e:never-pulled", // KWOK runs no containers
	}
)

func TestMain(m *testing.M) {
	testenv = env.NewWithConfig(envconf.New())
	createCluster, destroyCluster := suite.Kwok(clusterName)
	startServe, stopServe := suite.Serve(suite.ServeOptions{})
	testenv.Setup(
		createCluster,
		suite.KwokNodes(suite.GPUPools(gpus.GPUModels)...),
		startServe,
		suite.Platform(),
	)
	testenv.Finish(stopServe, destroyCluster)
	os.Exit(testenv.Run(m))
}
