package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/importer/openb"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

func newImportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Write scenarios from a live cluster, saved Kueue Workloads, or public cluster traces",
	}
	cmd.AddCommand(newImportClusterCmd(), newImportWorkloadsCmd(), newImportOpenBCmd(), newOpenBCurveCmd())
	return cmd
}

type importOpenBFlags struct {
	nodes, pods, out, mode, sharing, kind string
	seed                                  int64
	tune                                  float64
	skipBad                               bool
}

func newImportOpenBCmd() *cobra.Command {
	f := &importOpenBFlags{}
	cmd := &cobra.Command{
		Use:   "openb --nodes NODES.csv --pods PODS.csv -o SCENARIO.yaml",
		Short: "Write a scenario from the Alibaba openb GPU trace (cluster-trace-gpu-v2023)",
		Long: `sim import openb turns the openb trace's node list and task list into a
scenario: one node pool per node shape, one ResourceFlavor per GPU model
(nvidia.com/gpu.product), one ClusterQueue with the cluster's capacity as
quota, and every task as a workload (tasks of one shape form a stream;
gpu_spec becomes a required node affinity on the allowed models).

--mode timed replays creation and deletion times. --mode fill is the FGD
paper's method: tasks in trace order that never leave, resampled with the
seed until requested GPUs reach 130% of capacity; simulated second j is then
j% of capacity requested. Run the scenario (sim run --report DIR)
and read its allocation curve with sim import openb-curve.

--gpu-sharing whole (default) gives a fractional task a whole nvidia.com/gpu;
milli requests thousandths of kueue-sim.io/gpu-milli, which ignores GPU
boundaries. The first under-states, the second over-states what GPU sharing
reaches (see importer/openb's documentation).

Bad rows are listed with file and line and stop the import; --skip-bad
leaves them out (still listing them). Beside the scenario, OUT.tasks.csv maps
each workload to its task.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runImportOpenB(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.nodes, "nodes", "", "node list CSV (sn,cpu_milli,memory_mib,gpu,model)")
	fl.StringVar(&f.pods, "pods", "", "task list CSV (name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,...,creation_time,deletion_time,scheduled_time])")
	fl.StringVarP(&f.out, "output", "o", "", "scenario file to write")
	fl.StringVar(&f.mode, "mode", string(openb.Fill), "timed or fill")
	fl.StringVar(&f.sharing, "gpu-sharing", string(openb.Whole), "fractional GPUs: whole or milli")
	fl.StringVar(&f.kind, "kind", string(scenarios.KindJob), "workload kind: Job (pods through kube-scheduler) or Workload (raw Kueue Workloads, no pods)")
	fl.Int64Var(&f.seed, "seed", 42, "seed of fill mode's resampling; also the scenario's seed")
	fl.Float64Var(&f.tune, "tune", openb.DefaultTune, "fill mode: requested GPUs to reach, in multiples of capacity")
	fl.BoolVar(&f.skipBad, "skip-bad", false, "leave bad rows out (listed) instead of failing")
	for _, name := range []string{"nodes", "pods", "output"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

func runImportOpenB(cmd *cobra.Command, f *importOpenBFlags) error {
	out := cmd.OutOrStdout()
	imp, err := openb.FromFiles(f.nodes, f.pods, openb.Options{
		Mode: openb.Mode(f.mode), Sharing: openb.Sharing(f.sharing), Seed: f.seed, Tune: f.tune,
		Kind: scenarios.WorkloadKind(f.kind), SkipBad: f.skipBad,
	})
	var rows *openb.RowsError
	if errors.As(err, &rows) {
		return withExitCode(2, err)
	}
	if err != nil {
		return withExitCode(2, fmt.Errorf("importing the openb trace: %w", err))
	}
	for _, b := range imp.Bad {
		fmt.Fprintf(cmd.ErrOrStderr(), "left out: %s\n", b)
	}
	if err := imp.Write(f.out); err != nil {
		return err
	}
	fmt.Fprintf(out, "seed %d, %s mode, GPU sharing %s\n", f.seed, f.mode, f.sharing)
	fmt.Fprintf(out, "wrote %s: %d workloads (%d tasks in the trace, %d bad rows left out) in %d streams; %d nodes in %d pools, %d GPUs\n",
		f.out, len(imp.Tasks), imp.Original, len(imp.Bad), len(imp.Scenario.Workloads),
		imp.Inventory.Nodes, len(imp.Scenario.Cluster.NodePools), imp.Inventory.TotalGPUs)
	fmt.Fprintf(out, "wrote %s\n", openb.TasksPath(f.out))
	return nil
}

type curveFlags struct {
	tasks, published, trace, csvOut string
}

func newOpenBCurveCmd() *cobra.Command {
	f := &curveFlags{}
	cmd := &cobra.Command{
		Use:   "openb-curve SCENARIO EVENTS.jsonl",
		Short: "GPU allocation against arrived demand of a fill-mode openb replay, beside the published policies",
		Long: `sim import openb-curve reads a fill-mode openb replay (the scenario sim import
openb wrote, its task index and the run's events.jsonl) and prints the share
of the cluster's GPUs allocated (pods bound by kube-scheduler) and admitted
(Kueue's quota) against the GPU demand arrived, in % of capacity; with
--published, beside the FGD paper's policies (analysis_allo_discrete.csv).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return runOpenBCurve(cmd, f, args[0], args[1]) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.tasks, "tasks", "", "task index (default: SCENARIO with .tasks.csv)")
	fl.StringVar(&f.published, "published", "", "the published results, e.g. ../shared/traces/fgd-expected/analysis_allo_discrete.csv")
	fl.StringVar(&f.trace, "trace", "openb_pod_list_default", "trace variant of the published rows to compare with")
	fl.StringVar(&f.csvOut, "csv", "", "also write the curve (point,arrived,admitted,allocated) to this CSV file")
	return cmd
}

func runOpenBCurve(cmd *cobra.Command, f *curveFlags, scenarioPath, eventsPath string) error {
	c, s, err := openbCurve(f, scenarioPath, eventsPath)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "%s: %d tasks, %d admitted by Kueue, %d placed by kube-scheduler\n", s.Name, c.Tasks, c.AdmittedTasks, c.PlacedTasks)
	var pub []openb.Published
	if f.published != "" {
		if pub, err = openb.ReadPublished(f.published, f.trace, openb.DefaultTune); err != nil {
			return err
		}
	}
	fmt.Fprint(out, openb.Table(pub, map[string][openb.CurvePoints]float64{
		"Kueue + kube-scheduler: allocated": c.Allocated,
		"Kueue + kube-scheduler: admitted":  c.Admitted,
		"arrived demand":                    c.Arrived,
	}))
	if f.csvOut != "" {
		return writeCurveCSV(f.csvOut, c)
	}
	return nil
}

func openbCurve(f *curveFlags, scenarioPath, eventsPath string) (*openb.Curve, *scenarios.Scenario, error) {
	s, err := scenarios.LoadFile(scenarioPath)
	if err != nil {
		return nil, nil, withExitCode(2, err)
	}
	tasks := f.tasks
	if tasks == "" {
		tasks = openb.TasksPath(scenarioPath)
	}
	index, err := openb.ReadIndex(tasks)
	if err != nil {
		return nil, nil, err
	}
	ef, err := os.Open(eventsPath)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the event log: %w", err)
	}
	defer ef.Close()
	events, err := record.Read(ef)
	if err != nil {
		return nil, nil, err
	}
	c, err := openb.AllocationCurve(index, events, clusterGPUs(s))
	return c, s, err
}

func writeCurveCSV(path string, c *openb.Curve) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing the curve: %w", err)
	}
	fmt.Fprintln(f, "point,arrived,admitted,allocated")
	for j := 0; j < openb.CurvePoints; j++ {
		fmt.Fprintf(f, "%d,%.2f,%.2f,%.2f\n", j, c.Arrived[j], c.Admitted[j], c.Allocated[j])
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the curve: %w", err)
	}
	return nil
}

// clusterGPUs counts the scenario's GPUs: whole nvidia.com/gpu, or
// thousandths of kueue-sim.io/gpu-milli.
func clusterGPUs(s *scenarios.Scenario) int64 {
	var gpus, milli int64
	for _, p := range s.Cluster.NodePools {
		if q, ok := p.Allocatable[openb.GPUResource]; ok {
			gpus += int64(p.Count) * q.Value()
		}
		if q, ok := p.Allocatable[openb.GPUMilliResource]; ok {
			milli += int64(p.Count) * q.Value()
		}
	}
	return gpus + milli/1000
}
