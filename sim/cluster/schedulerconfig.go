package cluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// schedulerConfig is the KubeSchedulerConfiguration kube-scheduler runs
// with: its defaults (default profile and plugins, scoring, percentage of
// nodes to score) with three settings changed.
//
//   - parallelism: 1. kube-scheduler filters nodes on parallel goroutines
//     that append each feasible node to a shared list as they finish, and
//     breaks ties between equally scored nodes by their place in that
//     list: with its default of 16, the same pods met with the same nodes
//     land on different nodes of equal score from run to run, and where a
//     node pool fragments (a 1-GPU pod on the node a 2-GPU pod needed) a
//     workload runs later in one run than in another. With one goroutine
//     the list is in kube-scheduler's own node order, so ties break the
//     same way for the same sequence of pods (notebook-non-preemptive
//     wrote a second decisions.jsonl in 3 of 6 runs before, 3 of 23
//     after). The sequence itself the engine fixes: it holds an
//     instant's pods with a scheduling gate and releases them in scenario
//     order (sim/engine/hold.go). The cost is filtering and scoring on
//     one core, small next to the API round trips of each placement.
//   - leader election off, as for kube-controller-manager: one scheduler.
//   - the client's rate limits (clientRateLimit), which the command-line
//     flags cannot set once a configuration file is given.
const schedulerConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 1
leaderElection:
  leaderElect: false
clientConnection:
  kubeconfig: %q
  qps: %d
  burst: %d
`

// writeSchedulerConfig writes kube-scheduler's configuration for the
// kubeconfig kc into the run folder and returns its path.
func (cp *ControlPlane) writeSchedulerConfig(kc string) (string, error) {
	dir, err := cp.run.Sub("kubeconfigs")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "kube-scheduler.config.yaml")
	if err := os.WriteFile(path, schedulerConfigFor(kc), 0o600); err != nil {
		return "", fmt.Errorf("writing kube-scheduler's configuration: %w", err)
	}
	return path, nil
}

// schedulerConfigFor is kube-scheduler's configuration for the kubeconfig kc.
func schedulerConfigFor(kc string) []byte {
	return fmt.Appendf(nil, schedulerConfig, kc, clientQPS, clientBurst)
}
