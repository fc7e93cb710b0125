//go:build e2e

package deploy

import (
	"fmt"
	"os"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"github.com/kueue-sim/kueue-sim/e2e/features"
	"github.com/kueue-sim/kueue-sim/e2e/suite"
)

const clusterName = "kueue-sim-e2e-deploy"

var (
	testenv env.Environment
	gpus    = features.Cluster{
		GPUModels: [2]string{"NVIDIA-A100-SXM4-80GB", "NVIDIA-L4"},
		Image:     "registry.invalid/kueue-sim/e2e:never-pulled",
	}
)

func TestMain(m *testing.M) {
	testenv = env.NewWithConfig(envconf.New())
	serving, err := suite.NewWebhookServing()
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	createCluster, destroyCluster := suite.Kwok(clusterName)
	startKueue, stopKueue := suite.Serve(suite.ServeOptions{Name: "kueue", Args: []string{"--without-platform"}})
	startPlatform, stopPlatform := suite.Serve(suite.ServeOptions{
		Name: "platform",
		// The Deployment's flags (config/deploy/base/deployment.yaml), with
		// a local address instead of the Service.
		Args: append([]string{"--without-kueue", "--skip-crds"}, serving.Args()...),
		Kubeconfig: suite.ImpersonatingKubeconfig(suite.ServiceAccount,
			"system:serviceaccounts", "system:serviceaccounts:kueue-sim-system", "system:authenticated"),
	})
	testenv.Setup(
		createCluster,
		suite.KwokNodes(suite.GPUPools(gpus.GPUModels)...),
		startKueue,
		suite.Apply("config/deploy/base/namespace.yaml", "config/deploy/base/rbac.yaml"),
		serving.ApplyWebhooks("config/webhook/kueue-sim/manifests.yaml"),
		startPlatform,
		suite.Platform(),
	)
	testenv.Finish(stopPlatform, stopKueue, destroyCluster)
	os.Exit(testenv.Run(m))
}
