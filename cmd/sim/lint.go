package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/lint"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scheme"
	"github.com/kueue-sim/kueue-sim/sim/engine"
)

type lintFlags struct {
	kubeconfig string
}

func newLintCmd() *cobra.Command {
	f := &lintFlags{}
	cmd := &cobra.Command{
		Use:   "lint [SCENARIO] [--kubeconfig PATH]",
		Short: "Report what the platform's Kueue policy would refuse, without creating anything",
		Long: `sim lint reads a cluster (list calls only) and reports, one line each, what
kueue-sim's admission webhooks would refuse if the objects were created now,
and mistakes that leave workloads stuck:

  queueLabel            workload without kueue.x-k8s.io/queue-name in a Kueue-managed namespace
  hardwareProfile       missing hardware profile, or labels that disagree with the profile
  nodeProfile           hardware profile of scheduling type Node where Kueue places workloads
  acceleratorProfile    deprecated AcceleratorProfile used in a Kueue-managed namespace
  notebookQueue         Notebook on a preemptive ClusterQueue, or a preemptive default ClusterQueue
  localQueue            workload naming a LocalQueue its namespace lacks
  profileLocalQueue     Queue profile naming a LocalQueue missing in namespaces that may use it
  profilePriorityClass  Queue profile naming a WorkloadPriorityClass that does not exist

With a scenario file, it checks the scenario's queues, profiles and one
workload of each stream the same way, without starting anything.

Exit status: 0 no findings, 1 findings, 2 the cluster could not be read or
the scenario is invalid.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runLint(cmd, f, args) },
	}
	cmd.Flags().StringVar(&f.kubeconfig, "kubeconfig", "", "kubeconfig of the cluster to read (default: $KUBECONFIG, then ~/.kube/config)")
	return cmd
}

func runLint(cmd *cobra.Command, f *lintFlags, args []string) error {
	ctx := cmd.Context()
	var objs *lint.Objects
	var err error
	if len(args) > 0 {
		if f.kubeconfig != "" {
			return withExitCode(2, errors.New("give a scenario file or --kubeconfig, not both"))
		}
		objs, err = scenarioObjects(args[0])
	} else {
		objs, err = clusterObjects(ctx, f.kubeconfig)
	}
	if err != nil {
		return withExitCode(2, err)
	}
	findings, err := lint.Run(ctx, objs)
	if err != nil {
		return withExitCode(2, err)
	}
	out := cmd.OutOrStdout()
	for _, fd := range findings {
		fmt.Fprintln(out, fd)
	}
	if len(findings) > 0 {
		return withExitCode(1, fmt.Errorf("lint: %d finding(s)", len(findings)))
	}
	fmt.Fprintln(out, "no findings")
	return nil
}

func clusterObjects(ctx context.Context, kubeconfig string) (*lint.Objects, error) {
	c, err := lint.Connect(kubeconfig)
	if err != nil {
		return nil, err
	}
	objs, err := lint.FromCluster(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("reading the cluster: %w", err)
	}
	return objs, nil
}

func scenarioObjects(path string) (*lint.Objects, error) {
	s, err := scenarios.LoadFile(path)
	if err != nil {
		return nil, err
	}
	sch, err := scheme.New()
	if err != nil {
		return nil, err
	}
	list, err := engine.ScenarioObjects(s)
	if err != nil {
		return nil, err
	}
	objs := &lint.Objects{}
	if err := objs.Add(sch, list...); err != nil {
		return nil, fmt.Errorf("reading scenario %s: %w", path, err)
	}
	return objs, nil
}
