package openb

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// TasksSuffix names the task index written beside a scenario:
// out.yaml → out.tasks.csv.
const TasksSuffix = ".tasks.csv"

// TasksPath is the task index of a scenario file.
func TasksPath(scenarioPath string) string {
	return strings.TrimSuffix(scenarioPath, ".yaml") + TasksSuffix
}

// Write writes the scenario and, beside it, the task index that maps each
// workload back to its task (the replay's allocation curve needs it). The
// scenario is loaded back and validated first: an import never writes a
// file sim run would refuse.
func (imp *Import) Write(scenarioPath string) error {
	data, err := imp.YAML()
	if err != nil {
		return err
	}
	if _, err := scenarios.Load(scenarioPath, imp.Scenario.Name, data); err != nil {
		return fmt.Errorf("the imported scenario does not load: %w", err)
	}
	if err := os.WriteFile(scenarioPath, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", scenarioPath, err)
	}
	var buf bytes.Buffer
	if err := imp.WriteTasks(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(TasksPath(scenarioPath), buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", TasksPath(scenarioPath), err)
	}
	return nil
}

// YAML is the scenario file's content.
func (imp *Import) YAML() ([]byte, error) {
	body, err := yaml.Marshal(imp.Scenario)
	if err != nil {
		return nil, fmt.Errorf("writing the scenario: %w", err)
	}
	var head bytes.Buffer
	fmt.Fprintf(&head, "# %s\n# %d tasks (%d in the trace), %d nodes in %d pools, %d GPUs; %d streams.\n",
		imp.Scenario.Description, len(imp.Tasks), imp.Original, imp.Inventory.Nodes,
		len(imp.Scenario.Cluster.NodePools), imp.Inventory.TotalGPUs, len(imp.Scenario.Workloads))
	if len(imp.Bad) > 0 {
		fmt.Fprintf(&head, "# %d bad rows left out (see sim import's output).\n", len(imp.Bad))
	}
	return append(head.Bytes(), body...), nil
}

// taskHeader is the task index's header.
var taskHeader = []string{"workload", "task", "line", "gpu_milli", "at_seconds"}

// WriteTasks writes the task index: per workload, its task, the task's line
// in the task list, its GPU demand in thousandths and its arrival second.
func (imp *Import) WriteTasks(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(taskHeader)
	for _, p := range imp.Tasks {
		_ = cw.Write([]string{p.Workload, p.Name, strconv.Itoa(p.Line), strconv.FormatInt(p.TotalMilli(), 10), strconv.FormatInt(p.At, 10)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing the task index: %w", err)
	}
	return nil
}
