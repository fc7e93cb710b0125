package openb

import (
	"fmt"
	"sort"
	"strings"
)

var taskColumns = []string{"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}

// Task is one row of a task list.
type Task struct {
	Name     string
	Line     int
	CPUMilli int64
	MemMiB   int64
	GPUs     int64
	// GPUMilli is the share of each GPU, 1..1000 (0 without GPUs).
	GPUMilli int64
	// Models are the allowed GPU models (gpu_spec), sorted; none: any.
	Models []string
	// Creation, Deletion and Scheduled are seconds; -1 when not given.
	Creation, Deletion, Scheduled int64
}

// TotalMilli is the task's GPU demand in thousandths of a GPU.
func (t Task) TotalMilli() int64 { return t.GPUs * t.GPUMilli }

// ReadTasks reads a task list. Rows that cannot be used are returned as
// bad rows, each with its line; needTimes makes creation_time and
// deletion_time required (timed mode).
func ReadTasks(path string, inv *Inventory, needTimes bool) ([]Task, []BadRow, error) {
	t, bad, err := readTable(path, taskColumns)
	if err != nil {
		return nil, nil, err
	}
	if needTimes {
		for _, c := range []string{"creation_time", "deletion_time"} {
			if _, ok := t.columns[c]; !ok {
				return nil, nil, fmt.Errorf("reading %s: timed mode needs a %s column (use --mode fill for task lists without times)", path, c)
			}
		}
	}
	var tasks []Task
	for i, rec := range t.rows {
		task, problems := parseTask(t, rec, inv, needTimes)
		task.Line = t.lines[i]
		if len(problems) > 0 {
			bad = append(bad, BadRow{File: t.file, Line: task.Line, Msg: strings.Join(problems, "; ")})
			continue
		}
		tasks = append(tasks, task)
	}
	return tasks, bad, nil
}

func parseTask(t *table, rec []string, inv *Inventory, needTimes bool) (Task, []string) {
	f := &fields{t: t, rec: rec}
	task := Task{
		Name:     t.get(rec, "name"),
		CPUMilli: f.int("cpu_milli"), MemMiB: f.int("memory_mib"),
		GPUs: f.int("num_gpu"), GPUMilli: f.int("gpu_milli"),
		Creation: f.optInt("creation_time"), Deletion: f.optInt("deletion_time"), Scheduled: f.optInt("scheduled_time"),
	}
	if task.Name == "" {
		f.errs = append(f.errs, "name is empty")
	}
	switch {
	case task.GPUs == 0 && task.GPUMilli != 0:
		f.errs = append(f.errs, fmt.Sprintf("gpu_milli %d on a task without GPUs (num_gpu 0)", task.GPUMilli))
	case task.GPUs > 0 && (task.GPUMilli < 1 || task.GPUMilli > 1000):
		f.errs = append(f.errs, fmt.Sprintf("gpu_milli %d: a task's share of each GPU is 1 to 1000", task.GPUMilli))
	case task.GPUs > 1 && task.GPUMilli < 1000:
		f.errs = append(f.errs, fmt.Sprintf("num_gpu %d with gpu_milli %d: only a single GPU can be shared", task.GPUs, task.GPUMilli))
	}
	models, problem := specModels(t.get(rec, "gpu_spec"), inv)
	if problem != "" {
		f.errs = append(f.errs, problem)
	}
	task.Models = models
	if needTimes {
		switch {
		case task.Creation < 0:
			f.errs = append(f.errs, "creation_time is empty")
		case task.Deletion < 0:
			f.errs = append(f.errs, "deletion_time is empty")
		case task.Deletion < task.Creation:
			f.errs = append(f.errs, fmt.Sprintf("deletion_time %d is before creation_time %d", task.Deletion, task.Creation))
		case task.Scheduled >= 0 && (task.Scheduled < task.Creation || task.Scheduled > task.Deletion):
			f.errs = append(f.errs, fmt.Sprintf("scheduled_time %d is outside [creation_time %d, deletion_time %d]", task.Scheduled, task.Creation, task.Deletion))
		}
	}
	return task, f.errs
}

// specModels parses gpu_spec: models separated by |, duplicates dropped.
// Models the node list lacks are a problem only when none is left.
func specModels(spec string, inv *Inventory) ([]string, string) {
	if spec == "" {
		return nil, ""
	}
	seen := map[string]bool{}
	var known, unknown []string
	for _, m := range strings.Split(spec, "|") {
		m = strings.TrimSpace(m)
		if m == "" || seen[m] {
			continue
		}
		seen[m] = true
		if _, ok := inv.GPUs[m]; ok {
			known = append(known, m)
		} else {
			unknown = append(unknown, m)
		}
	}
	sort.Strings(known)
	if len(known) == 0 {
		return nil, fmt.Sprintf("gpu_spec %q names no GPU model of the node list (%s)", spec, strings.Join(inv.Models, ", "))
	}
	return known, ""
}

// inTraceOrder sorts tasks by creation time, keeping row order among equal
// times (and for lists without times).
func inTraceOrder(tasks []Task) {
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].Creation < tasks[j].Creation })
}
