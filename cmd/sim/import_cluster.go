package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/importer/kube"
)

type importClusterFlags struct {
	kubeconfig, context, out, name string
	since                          time.Duration
	redact                         bool
}

func newImportClusterCmd() *cobra.Command {
	f := &importClusterFlags{}
	cmd := &cobra.Command{
		Use:   "cluster --kubeconfig PATH [--context NAME] [--since 168h] [--redact] -o DIR",
		Short: "Write a scenario from a live cluster: its nodes, queues and recent Workloads (list calls only)",
		Long: `sim import cluster reads a live cluster with list calls only and writes
DIR/scenario.yaml, DIR/manifests/ and, when the cluster has Kueue's
ConfigMap kueue-manager-config, DIR/kueue-config.yaml:

  - node pools: the nodes grouped by GPU product label, the labels the
    ResourceFlavors and Topologies select on, allocatable and taints (cordoned
    nodes and the node lifecycle's taints left out), with their counts;
  - manifests: Namespaces (Kueue-managed ones and those the objects live in),
    ResourceFlavors, Topologies, Cohorts, AdmissionChecks, ClusterQueues,
    LocalQueues, WorkloadPriorityClasses (kueue.x-k8s.io/v1beta2) and OpenShift
    AI HardwareProfiles, DataScienceClusters and OdhDashboardConfigs, without
    status, managedFields, uid, resourceVersion and the like;
  - streams that replay the Workloads created in the last --since (and older
    ones still running or pending, at time 0), as sim import workloads does;
  - templates: the Workloads' owners (batch Jobs, PyTorchJobs, RayJobs,
    RayClusters, Notebooks, InferenceServices), listed per kind in the
    namespaces of the replayed Workloads, each distinct spec written once to
    DIR/templates/ (status, uids, managed fields, owner references, Kueue's
    labels and annotations and what the operators set at run time removed;
    images and env kept unless --redact) and named by the streams as their
    template. A Workload whose owner is gone, or of another kind, is rebuilt
    from its pod sets; the scenario's top comment and the output say how
    many are;
  - cluster.kueueVersion: the Kueue release the cluster runs, from the image
    tag of Kueue's controller-manager Deployment (for the Red Hat build of
    Kueue, the Kueue minor of the release its operator's OLM owner names),
    when kueue-sim replays it; else a comment there names the nearest
    release it does, and an unknown release is a warning on stderr.

It reads ConfigMaps of Kueue's namespace only, and never Secrets, pods or
logs. Deployments it may not list leave the Kueue release unknown, not the
import incomplete. A kind whose CRD is missing is skipped with a note (an
owner kind quietly). A list the user may not make is reported on stderr
("forbidden: list clusterqueues.kueue.x-k8s.io: ..."), the import goes on,
the scenario's description and top comment start with "Incomplete:", and the
command still exits 0 (node pools are inferred from the workloads when nodes
cannot be listed; a forbidden owner list is a note, its Workloads rebuilt
from their pod sets).

The scenario always loads: what the workloads and objects name and the
cluster lacks (a WorkloadPriorityClass, a Namespace, a LocalQueue, a
ClusterQueue a LocalQueue names, inferred from its workloads' demand) is
added, said on stderr and marked "Inferred:" in the scenario.`,
		Example: `  sim import cluster --kubeconfig ~/.kube/config -o my-cluster/
  sim import cluster --kubeconfig kc --context prod --since 24h -o prod/
  sim import cluster --kubeconfig kc --redact -o shareable/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runImportCluster(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "kubeconfig of the cluster (default: $KUBECONFIG, then ~/.kube/config)")
	fl.StringVar(&f.context, "context", "", "kubeconfig context (default: the current one)")
	fl.DurationVar(&f.since, "since", kube.DefaultSince, "replay the Workloads created this long before now")
	fl.StringVarP(&f.out, "output", "o", "", "folder to write (scenario.yaml, manifests/, kueue-config.yaml)")
	fl.StringVar(&f.name, "name", "", "scenario name (default: the folder's name)")
	fl.BoolVar(&f.redact, "redact", false, "drop every container's and init container's env, envFrom, command and args (and a RayJob's entrypoint and runtimeEnvYAML) from the templates")
	_ = cmd.MarkFlagRequired("output")
	return cmd
}

func runImportCluster(cmd *cobra.Command, f *importClusterFlags) error {
	if f.since <= 0 {
		return withExitCode(2, fmt.Errorf("--since %s: give a positive duration, e.g. 168h", f.since))
	}
	c, source, err := importReader(f.kubeconfig, f.context)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	imp, err := kube.FromCluster(ctx, c, kube.ClusterOptions{Since: f.since, Name: f.name, Dir: f.out, Source: source, Redact: f.redact})
	if err != nil {
		return fmt.Errorf("importing %s: %w", source, err)
	}
	if err := imp.Write(f.out); err != nil {
		return err
	}
	reportImport(cmd.OutOrStdout(), cmd.ErrOrStderr(), imp, f.out)
	for _, w := range imp.Warnings {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", w)
	}
	return nil
}

// importReader is a client of the cluster of path and context with the
// import's scheme, and the cluster's name; a kubeconfig that does not load
// exits 2.
func importReader(path, context string) (client.Client, string, error) {
	cfg, source, err := importKubeconfig(path, context)
	if err != nil {
		return nil, "", withExitCode(2, err)
	}
	s, err := kube.Scheme()
	if err != nil {
		return nil, "", err
	}
	c, err := client.New(cfg, client.Options{Scheme: s})
	if err != nil {
		return nil, "", fmt.Errorf("connecting to %s: %w", source, err)
	}
	return c, source, nil
}

// importKubeconfig loads the client configuration of path (default rules
// when empty) and context, and names the cluster: "context NAME (SERVER)".
func importKubeconfig(path, context string) (*rest.Config, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = path
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: context})
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("loading kubeconfig %q: %w (give --kubeconfig PATH and, if needed, --context NAME)", path, err)
	}
	raw, err := cc.RawConfig()
	name := context
	if err == nil && name == "" {
		name = raw.CurrentContext
	}
	cfg.Timeout = time.Minute
	return cfg, fmt.Sprintf("context %s (%s)", name, cfg.Host), nil
}
