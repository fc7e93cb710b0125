//go:build e2e

package kind

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/envfuncs"
	kindprovider "sigs.k8s.io/e2e-framework/support/kind"

	"github.com/kueue-sim/kueue-sim/e2e/features"
	"github.com/kueue-sim/kueue-sim/e2e/suite"
)

const clusterName = "kueue-sim-e2e"

var (
	testenv env.Environment
	// skip says why the suite cannot run here; "" when it can.
	skip string
	gpus = features.Cluster{
		GPUModels: [2]string{"NVIDIA-A100-SXM4-80GB", "NVIDIA-H100-80GB-HBM3"}, // kind-config.yaml
		Image:     "registry.k8s.io/pause:3.10",                                // preloaded on kind nodes
	}
)

func TestMain(m *testing.M) {
	if skip = suite.KindMissing(context.Background()); skip != "" {
		fmt.Printf("suite: the kind suite is skipped: %s\n", skip)
		os.Exit(m.Run())
	}
	testenv = env.NewWithConfig(envconf.New())
	testenv.Setup(
		suite.Run("kind", "delete", "cluster", "--name", clusterName), // one left by a killed run
		envfuncs.CreateClusterWithConfig(kindprovider.NewProvider(), clusterName, "kind-config.yaml"),
		suite.FakeGPUs(8),
		suite.Kubectl("apply", "--server-side", "-f", suite.KueueManifests),
		suite.WaitAvailable("kueue-system", "kueue-controller-manager", 5*time.Minute),
		suite.Kubectl("apply", "-f", suite.CertManagerManifests),
		suite.WaitAvailable("cert-manager", "cert-manager-webhook", 5*time.Minute),
		suite.PlatformCRDs(),
		suite.Run("docker", "build", "-t", suite.KindImage, "."),
		envfuncs.LoadImageToCluster(clusterName, suite.KindImage),
		suite.Kubectl("apply", "-k", "../../config/deploy/overlays/kind"),
		suite.WaitAvailable("kueue-sim-system", "kueue-sim", 5*time.Minute),
		suite.WaitCABundle(),
		suite.Platform(),
	)
	testenv.Finish(envfuncs.DestroyCluster(clusterName))
	os.Exit(testenv.Run(m))
}
