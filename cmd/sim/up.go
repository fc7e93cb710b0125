package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/platform"
	"github.com/kueue-sim/kueue-sim/sim/procs"
)

type upFlags struct {
	kubeconfig   string
	nodesFile    string
	kueueConfig  string
	runRoot      string
	noOperator   bool
	installTools bool
}

func newUpCmd() *cobra.Command {
	f := &upFlags{}
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start the embedded control plane with Kueue and wait until Ctrl-C",
		Long: `sim up starts a real kube-apiserver and etcd, the real kube-scheduler and
kube-controller-manager, and a real Kueue in this process, makes Ready fake
nodes, writes an admin kubeconfig, and runs until Ctrl-C or SIGTERM. If any
part dies, everything stops. A start after a killed sim first ends that run's
leftover processes.

Node pools (--nodes) are YAML:

  pools:
  - name: a100
    count: 2
    labels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
    allocatable: {cpu: "96", memory: 1Ti, nvidia.com/gpu: "8"}
    taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]

Without --nodes: two such A100 nodes and two CPU nodes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runUp(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.kubeconfig, "write-kubeconfig", "", "where to write the admin kubeconfig (default: <user cache>/kueue-sim/kubeconfig)")
	fl.StringVar(&f.nodesFile, "nodes", "", "node-pool file (YAML, see above)")
	fl.StringVar(&f.kueueConfig, "kueue-config", "", "Kueue Configuration file (config.kueue.x-k8s.io/v1beta2): fair sharing, preemption, waitForPodsReady, integrations")
	fl.BoolVar(&f.noOperator, "without-kueue-operator", false, "leave out the Red Hat build of Kueue operator's CRD (the platform then reports Kueue as not installed)")
	fl.StringVar(&f.runRoot, "run-root", procs.DefaultRunRoot(), "folder for the run's files (etcd data, certificates, logs); removed on stop")
	fl.BoolVar(&f.installTools, "install-tools", false, installToolsUsage)
	return cmd
}

func runUp(cmd *cobra.Command, f *upFlags) error {
	out := cmd.OutOrStdout()
	pools := nodes.DefaultPools()
	if f.nodesFile != "" {
		spec, err := nodes.LoadSpec(f.nodesFile)
		if err != nil {
			return withExitCode(2, err)
		}
		pools = spec.Pools
	}
	if f.kubeconfig == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("choosing where to write the kubeconfig (use --write-kubeconfig): %w", err)
		}
		f.kubeconfig = filepath.Join(cache, "kueue-sim", "kubeconfig")
	}

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if f.installTools {
		if err := installControlPlaneTools(ctx, out); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "starting kube-apiserver, etcd, kube-scheduler, kube-controller-manager and Kueue...")
	began := time.Now()
	opts := append([]cluster.Option{
		cluster.WithNodePools(pools...),
		cluster.WithKueueConfigFile(f.kueueConfig),
		cluster.WithRunRoot(f.runRoot),
	}, platform.Options(platform.Settings{OperatorInstalled: !f.noOperator})...)
	cp, err := cluster.Start(ctx, opts...)
	if err != nil {
		return fmt.Errorf("starting the control plane: %w", err)
	}
	for _, line := range cp.CleanupLog() {
		fmt.Fprintln(out, "cleanup:", line)
	}
	if err := cp.WriteKubeConfig(f.kubeconfig); err != nil {
		return errors.Join(err, cp.Stop())
	}
	defer os.Remove(f.kubeconfig) // it points at a server that is about to stop

	fmt.Fprintf(out, "control plane ready in %s (run folder %s)\n", time.Since(began).Round(100*time.Millisecond), cp.RunDir)
	fmt.Fprintf(out, "\n  export KUBECONFIG=%s\n  kubectl get nodes -L nvidia.com/gpu.product\n\nPress Ctrl-C to stop.\n", f.kubeconfig)

	var crashed error
	select {
	case <-ctx.Done():
		fmt.Fprintln(out, "stopping...")
	case crashed = <-cp.Done():
		fmt.Fprintf(out, "a part of the control plane failed, stopping everything: %v\n", crashed)
	}
	stop() // a second Ctrl-C now kills sim; the kernel then ends the children
	if err := cp.Stop(); err != nil {
		return errors.Join(crashed, fmt.Errorf("stopping the control plane: %w", err))
	}
	if crashed != nil {
		return crashed
	}
	fmt.Fprintln(out, "stopped")
	return nil
}
