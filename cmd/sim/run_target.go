package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/kueue-sim/kueue-sim/sim/harness"
)

// targetFlags choose where sim run replays a scenario.
type targetFlags struct {
	kubeconfig   string
	kwokNodes    bool
	prefix       string
	keep         bool
	installTools bool
	slowKueue    time.Duration
}

func addTargetFlags(fl *pflag.FlagSet, f *targetFlags) {
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "replay on the existing cluster of this kubeconfig instead of the embedded control plane (Kueue and the platform run in sim against it)")
	fl.BoolVar(&f.kwokNodes, "kwok-nodes", false, "with --kubeconfig: make the scenario's node pools as KWOK fake nodes (a cluster made by kwokctl with sim/kwok's config), deleted afterwards")
	fl.StringVar(&f.prefix, "namespace-prefix", "", `with --kubeconfig: prefix of the run's namespaces (default "ks-<run id>-")`)
	fl.BoolVar(&f.keep, "keep", false, "with --kubeconfig: leave what the run made on the cluster (namespaces, workloads, queues, KWOK nodes), e.g. for sim import cluster; Kueue and the platform still stop")
	fl.BoolVar(&f.installTools, "install-tools", false, installToolsUsage+"; and the sim of the Kueue release the run asks for, when missing (sim tools install kueue@RELEASE, from kueue-sim's source tree)")
	fl.DurationVar(&f.slowKueue, "slow-kueue", 0, "slow each reconcile of Kueue's Workload, LocalQueue and job-integration reconcilers by this much wall time, as on a far busier machine: the decisions must not change, only take longer (a check of the replay's determinism; embedded control plane only)")
}

// options are the harness options of the target flags.
func (f *targetFlags) options() []harness.Option {
	return []harness.Option{
		harness.WithKubeconfig(f.kubeconfig), harness.WithKwokNodes(f.kwokNodes), harness.WithNamespacePrefix(f.prefix),
		harness.WithKeep(f.keep), harness.WithInstallTools(f.installTools), harness.WithSlowKueue(f.slowKueue),
	}
}

// targetFlag is the flag of each harness option that works on one target
// only.
var targetFlag = map[string]string{
	"WithKwokNodes": "--kwok-nodes", "WithNamespacePrefix": "--namespace-prefix", "WithKeep": "--keep", "WithSlowKueue": "--slow-kueue",
}

// targetError gives the harness's bad-input errors exit code 2, and says a
// flag given for the other target in sim run's terms.
func targetError(err error) error {
	var c *harness.ConflictError
	switch {
	case errors.As(err, &c) && c.Embedded:
		name := targetFlag[c.Option]
		return withExitCode(2, fmt.Errorf("%s works only on the embedded control plane: drop --kubeconfig or %s", name, name))
	case errors.As(err, &c):
		name := targetFlag[c.Option]
		return withExitCode(2, fmt.Errorf("%s works only with --kubeconfig (a replay on an existing cluster): add --kubeconfig PATH or drop %s", name, name))
	case harness.IsInvalid(err):
		return withExitCode(2, err)
	}
	return err
}
