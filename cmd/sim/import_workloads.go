package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/importer/kube"
)

type importWorkloadsFlags struct {
	cluster, out, name string
	owners             []string
	redact             bool
}

func newImportWorkloadsCmd() *cobra.Command {
	f := &importWorkloadsFlags{}
	cmd := &cobra.Command{
		Use:   "workloads FILE... [--owners FILE]... [--redact] [--cluster SCENARIO|DIR] -o DIR",
		Short: "Write a scenario that replays saved Kueue Workloads (kubectl get workloads -o yaml|json)",
		Long: `sim import workloads reads saved dumps of Kueue Workloads
(kubectl get workloads.kueue.x-k8s.io -A -o yaml, or -o json; kueue.x-k8s.io
v1beta1 or v1beta2; a List, single Workloads or several YAML documents) and
writes DIR/scenario.yaml that replays them: arrival at creation, run time from
admission to Finished (none for the ones still running: they run to the end;
the ones that never ran get the median of their stream), pod sets' counts and
requests, queue, priority class, and the kind from the owner (a Workload that
fits no kind is replayed as a raw Workload asking for all it asked for).

With --owners (repeatable; e.g. kubectl get jobs,pytorchjobs,rayjobs,rayclusters
-A -o yaml, a List or several YAML documents) the Workloads whose owner the
dumps hold replay the owner's manifest, as sim import cluster's do: each
distinct spec written once to DIR/templates/, cleaned of what the cluster and
the operators fill in, images and env kept unless --redact. The others are
rebuilt from their pod sets, and the scenario's top comment and the output
say how many are. Objects of other kinds in those dumps are left out, with a
note.

The cluster and the queues come from --cluster when given: a scenario file
(its node pools, Kueue configuration, queues and teams, paths rewritten to
resolve from DIR) or a folder of manifests (copied into DIR/manifests; one
node pool per ResourceFlavor inferred from the demand). Without it they are
inferred: one node pool and one ClusterQueue per LocalQueue's ClusterQueue in
one cohort, sized to the dump's peak concurrent demand; the scenario's
description and top comment start with "Inferred:". What the workloads name
and --cluster lacks (a LocalQueue, its ClusterQueue, a WorkloadPriorityClass,
a team) is added the same way and said on stderr: the scenario always loads.

Bad input (unreadable file, bad YAML, an object that is not a Workload) is
reported with the file, its line and document, and exits 2.`,
		Example: `  kubectl get workloads.kueue.x-k8s.io -A -o yaml > workloads.yaml
  sim import workloads workloads.yaml -o imported/
  sim import workloads workloads.yaml --cluster my-cluster.yaml -o replay/
  kubectl get jobs,pytorchjobs,rayjobs,rayclusters -A -o yaml > owners.yaml
  sim import workloads workloads.yaml --owners owners.yaml --redact -o replay/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runImportWorkloads(cmd, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.cluster, "cluster", "", "scenario file, or folder of manifests, to take the cluster and queues from (default: inferred)")
	fl.StringVarP(&f.out, "output", "o", "", "folder to write (scenario.yaml, manifests/)")
	fl.StringVar(&f.name, "name", "", "scenario name (default: the folder's name)")
	fl.StringArrayVar(&f.owners, "owners", nil, "dump of the Workloads' owners (Jobs, PyTorchJobs, RayJobs, RayClusters, Notebooks, InferenceServices) to replay their manifests; repeatable")
	fl.BoolVar(&f.redact, "redact", false, "drop every container's and init container's env, envFrom, command and args (and a RayJob's entrypoint and runtimeEnvYAML) from the templates")
	_ = cmd.MarkFlagRequired("output")
	return cmd
}

func runImportWorkloads(cmd *cobra.Command, f *importWorkloadsFlags, files []string) error {
	if f.redact && len(f.owners) == 0 {
		return withExitCode(2, fmt.Errorf("--redact applies to the owners' manifests: give them with --owners FILE"))
	}
	imp, err := kube.FromWorkloadFiles(files, kube.WorkloadsOptions{Cluster: f.cluster, Dir: f.out, Name: f.name, Owners: f.owners, Redact: f.redact})
	if kube.IsInputError(err) {
		return withExitCode(2, err)
	}
	if err != nil {
		return fmt.Errorf("importing workloads: %w", err)
	}
	if err := imp.Write(f.out); err != nil {
		return err
	}
	reportImport(cmd.OutOrStdout(), cmd.ErrOrStderr(), imp, f.out)
	return nil
}

// reportImport says what an import wrote, and on stderr what it added
// because the cluster lacks it and what it could not read.
func reportImport(out, errOut io.Writer, imp *kube.Import, dir string) {
	s := imp.Scenario
	nodes := 0
	for _, p := range s.Cluster.NodePools {
		nodes += p.Count
	}
	fmt.Fprintf(out, "wrote %s: %s in %s, %s, %s in %s\n", filepath.Join(dir, kube.ScenarioFile),
		plural(imp.Workloads, "workload"), plural(len(s.Workloads), "stream"), plural(len(s.Teams), "team"),
		plural(nodes, "node"), plural(len(s.Cluster.NodePools), "pool"))
	if imp.CopyManifests != "" {
		fmt.Fprintf(out, "copied %s into %s\n", imp.CopyManifests, filepath.Join(dir, kube.ManifestsDir))
	}
	if names, _, err := imp.Manifests.Files(); err == nil && len(names) > 0 {
		fmt.Fprintf(out, "wrote %s: %s\n", filepath.Join(dir, imp.OwnManifestsDir()), strings.Join(names, ", "))
	}
	if imp.KueueConfig != nil {
		fmt.Fprintf(out, "wrote %s\n", filepath.Join(dir, kube.KueueConfigFile))
	}
	if files := imp.TemplateFiles(); len(files) > 0 {
		fmt.Fprintf(out, "wrote %s: %s\n", filepath.Join(dir, kube.TemplatesDir), plural(len(files), "template"))
	}
	if line := imp.OwnersLine(); line != "" {
		fmt.Fprintf(out, "owners: %s\n", line)
	}
	for _, i := range imp.Inferred {
		fmt.Fprintf(out, "inferred: %s\n", i)
	}
	for _, n := range imp.Notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	if len(imp.Added) > 0 {
		fmt.Fprintf(errOut, "warning: the workloads and objects name what the cluster lacks; the import added it so that the scenario loads (marked Inferred in the scenario):\n")
		for _, a := range imp.Added {
			fmt.Fprintf(errOut, "  %s\n", a)
		}
	}
	if imp.Incomplete() {
		fmt.Fprintf(errOut, "warning: the import is incomplete (marked so in the scenario); it could not read:\n")
		for _, m := range imp.Missing {
			fmt.Fprintf(errOut, "  %s\n", m)
		}
	}
}
