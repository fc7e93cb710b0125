package openb

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Mode says how tasks arrive and leave.
type Mode string

// Modes.
const (
	// Timed replays creation and deletion times.
	Timed Mode = "timed"
	// Fill is the published method: trace order, never leave, resampled to
	// 130% of capacity.
	Fill Mode = "fill"
)

// Sharing says how fractional GPUs are requested.
type Sharing string

// GPU sharing mappings (see the package documentation).
const (
	Whole Sharing = "whole"
	Milli Sharing = "milli"
)

// Names of the objects the import makes.
const (
	Team  = "openb"
	Queue = "openb"
)

// Options of an import.
type Options struct {
	Mode    Mode
	Sharing Sharing
	Seed    int64
	// Tune is fill mode's demand target in multiples of capacity (default
	// DefaultTune).
	Tune float64
	// Kind of each workload: Job (default) or Workload (no pods).
	Kind scenarios.WorkloadKind
	// SkipBad leaves bad rows out instead of failing.
	SkipBad bool
	// Name of the scenario; default from the task file's name.
	Name string
}

// Import is an imported trace.
type Import struct {
	Scenario *scenarios.Scenario
	// Tasks are the imported tasks in arrival order, with their workloads.
	Tasks []Placed
	// Bad are the rows left out (SkipBad).
	Bad []BadRow
	// Original is the number of tasks before fill mode's resampling.
	Original  int
	Inventory *Inventory
}

// Placed is a task and the workload that replays it.
type Placed struct {
	Task
	// Workload is the workload's name (stream-index).
	Workload string
	// At is its arrival, in simulated seconds.
	At int64
}

// FromFiles imports a node list and a task list.
func FromFiles(nodesPath, tasksPath string, o Options) (*Import, error) {
	o = defaults(o, tasksPath)
	if err := o.check(); err != nil {
		return nil, err
	}
	inv, badNodes, err := ReadNodes(nodesPath)
	if err != nil {
		return nil, err
	}
	if len(badNodes) > 0 && !o.SkipBad {
		return nil, &RowsError{Rows: badNodes}
	}
	tasks, badTasks, err := ReadTasks(tasksPath, inv, o.Mode == Timed)
	if err != nil {
		return nil, err
	}
	bad := append(badNodes, badTasks...)
	sort.SliceStable(bad, func(i, j int) bool { return bad[i].File == bad[j].File && bad[i].Line < bad[j].Line })
	if len(badTasks) > 0 && !o.SkipBad {
		return nil, &RowsError{Rows: bad}
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("importing %s: no usable tasks", tasksPath)
	}
	imp := &Import{Bad: bad, Original: len(tasks), Inventory: inv}
	inTraceOrder(tasks)
	var at []int64
	if o.Mode == Fill {
		tasks = resample(tasks, inv.TotalGPUs, o.Tune, o.Seed)
		inTraceOrder(tasks)
		at = demandSeconds(tasks, inv.TotalGPUs)
	} else {
		at = make([]int64, len(tasks))
		for i, t := range tasks {
			at[i] = t.Creation
		}
	}
	imp.Scenario, imp.Tasks = build(inv, tasks, at, o, nodesPath, tasksPath)
	return imp, nil
}

func defaults(o Options, tasksPath string) Options {
	if o.Mode == "" {
		o.Mode = Fill
	}
	if o.Sharing == "" {
		o.Sharing = Whole
	}
	if o.Tune == 0 {
		o.Tune = DefaultTune
	}
	if o.Kind == "" {
		o.Kind = scenarios.KindJob
	}
	if o.Name == "" {
		base := strings.TrimSuffix(filepath.Base(tasksPath), filepath.Ext(tasksPath))
		o.Name = strings.ToLower(strings.ReplaceAll(base, "_", "-")) + "-" + string(o.Mode)
	}
	return o
}

func (o Options) check() error {
	switch {
	case o.Mode != Timed && o.Mode != Fill:
		return fmt.Errorf("mode %q: use timed or fill", o.Mode)
	case o.Sharing != Whole && o.Sharing != Milli:
		return fmt.Errorf("GPU sharing %q: use whole or milli", o.Sharing)
	case o.Kind != scenarios.KindJob && o.Kind != scenarios.KindWorkload:
		return fmt.Errorf("kind %q: use Job or Workload", o.Kind)
	case !(o.Tune > 0 && o.Tune <= 10):
		return fmt.Errorf("tune %g: must be in (0, 10]", o.Tune)
	}
	return nil
}

// shape is what makes tasks one stream.
type shape struct {
	cpuMilli, memMiB, gpus, gpuMilli int64
	models                           string
}

func shapeOf(t Task) shape {
	return shape{t.CPUMilli, t.MemMiB, t.GPUs, t.GPUMilli, strings.Join(t.Models, "|")}
}

// build groups tasks (in arrival order, with their arrival seconds) into
// streams by shape and assembles the scenario.
func build(inv *Inventory, tasks []Task, at []int64, o Options, nodesPath, tasksPath string) (*scenarios.Scenario, []Placed) {
	index := map[shape]int{}
	var streams []scenarios.Stream
	placed := make([]Placed, len(tasks))
	for i, t := range tasks {
		sh := shapeOf(t)
		k, ok := index[sh]
		if !ok {
			k = len(streams)
			index[sh] = k
			streams = append(streams, stream(fmt.Sprintf("shape-%d", k), t, o))
		}
		st := &streams[k]
		placed[i] = Placed{Task: t, Workload: fmt.Sprintf("%s-%d", st.Name, len(st.Arrival.At)), At: at[i]}
		st.Arrival.At = append(st.Arrival.At, seconds(at[i]))
		if o.Mode == Timed {
			st.Durations = append(st.Durations, seconds(max(runSeconds(t), 1)))
		}
	}
	for i := range streams {
		streams[i].Count = ptr.To(int32(len(streams[i].Arrival.At)))
	}
	s := &scenarios.Scenario{
		APIVersion: scenarios.APIVersion, Kind: scenarios.Kind, Name: o.Name, Seed: ptr.To(o.Seed),
		Description: fmt.Sprintf("Alibaba openb trace: nodes %s, tasks %s, %s mode, GPU sharing %s, seed %d (imported by sim import openb).",
			filepath.Base(nodesPath), filepath.Base(tasksPath), o.Mode, o.Sharing, o.Seed),
		Cluster: scenarios.Cluster{NodePools: inv.pools(o.Sharing)},
		Queues: scenarios.Queues{
			ResourceFlavors: inv.flavors(),
			ClusterQueues:   []scenarios.ClusterQueue{inv.clusterQueue(Queue, o.Sharing)},
		},
		Teams:     []scenarios.Team{{Name: Team, LocalQueues: []scenarios.LocalQueue{{Name: Queue, ClusterQueue: Queue}}}},
		Workloads: streams,
	}
	return s, placed
}

// runSeconds is how long a task ran in the trace.
func runSeconds(t Task) int64 {
	if t.Scheduled >= 0 {
		return t.Deletion - t.Scheduled
	}
	return t.Deletion - t.Creation
}

func seconds(s int64) metav1.Duration {
	return metav1.Duration{Duration: time.Duration(s) * time.Second}
}

func stream(name string, t Task, o Options) scenarios.Stream {
	req := corev1.ResourceList{corev1.ResourceCPU: *resource.NewMilliQuantity(t.CPUMilli, resource.DecimalSI)}
	if t.MemMiB > 0 {
		req[corev1.ResourceMemory] = *resource.NewQuantity(t.MemMiB<<20, resource.BinarySI)
	}
	if t.GPUs > 0 {
		if o.Sharing == Milli {
			req[GPUMilliResource] = *resource.NewQuantity(t.TotalMilli(), resource.DecimalSI)
		} else {
			req[GPUResource] = *resource.NewQuantity(t.GPUs, resource.DecimalSI)
		}
	}
	st := scenarios.Stream{Name: name, Team: Team, Kind: o.Kind, Requests: req, Queue: Queue}
	if len(t.Models) > 0 {
		st.RequiredNodeAffinity = []corev1.NodeSelectorRequirement{{
			Key: GPUProductLabel, Operator: corev1.NodeSelectorOpIn, Values: append([]string(nil), t.Models...),
		}}
	}
	return st
}
