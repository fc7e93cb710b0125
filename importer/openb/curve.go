package openb

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// CurvePoints is the number of points of an allocation curve: arrived
// demand 0%, 1%, ..., 130% of capacity.
const CurvePoints = 131

// Curve is a fill-mode replay's outcome: at each point j, what share of
// the cluster's GPUs (in %) had arrived, been admitted by Kueue (quota
// reserved) and been allocated (the task's pod bound to a node by
// kube-scheduler; raw Workloads: admitted). Shares count each task's GPU
// demand in the trace (gpu_milli × num_gpu), whatever the GPU-sharing
// mapping, as the published metric does.
type Curve struct {
	Arrived, Admitted, Allocated [CurvePoints]float64
	// Tasks, Placed and Admitted count the tasks by the end of the run.
	Tasks, PlacedTasks, AdmittedTasks int
}

// IndexEntry is a row of a task index.
type IndexEntry struct {
	Workload string
	Task     string
	Line     int
	GPUMilli int64
	At       int64
}

// ReadIndex reads a task index written beside an imported scenario.
func ReadIndex(path string) ([]IndexEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the task index: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = len(taskHeader)
	var out []IndexEntry
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if line == 1 {
			continue
		}
		l, err1 := strconv.Atoi(rec[2])
		g, err2 := strconv.ParseInt(rec[3], 10, 64)
		at, err3 := strconv.ParseInt(rec[4], 10, 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("reading %s line %d: %w", path, line, err)
		}
		out = append(out, IndexEntry{Workload: rec[0], Task: rec[1], Line: l, GPUMilli: g, At: at})
	}
	return out, nil
}

// AllocationCurve computes the curve of a fill-mode replay from its task
// index, its event log and the cluster's GPUs.
func AllocationCurve(index []IndexEntry, events []record.Event, capacityGPUs int64) (*Curve, error) {
	if capacityGPUs <= 0 {
		return nil, fmt.Errorf("the cluster has no GPUs")
	}
	milli := map[string]int64{}
	for _, e := range index {
		milli[e.Workload] = e.GPUMilli
	}
	c := &Curve{Tasks: len(index)}
	var arrived, admitted, allocated [CurvePoints]int64
	for _, e := range index {
		arrived[point(e.At)] += e.GPUMilli
	}
	placed, adm := map[string]bool{}, map[string]bool{}
	for _, ev := range events {
		name := ev.Workload[strings.LastIndex(ev.Workload, "/")+1:]
		g, ok := milli[name]
		if !ok {
			continue
		}
		j := point(int64(ev.T.D().Seconds()))
		switch {
		case ev.Type == record.TypeAdmitted && !adm[name]:
			adm[name] = true
			admitted[j] += g
			if ev.Kind == "Workload" {
				placed[name] = true
				allocated[j] += g
			}
		case ev.Type == record.TypePlaced && !placed[name]:
			placed[name] = true
			allocated[j] += g
		}
	}
	c.PlacedTasks, c.AdmittedTasks = len(placed), len(adm)
	capMilli := float64(capacityGPUs * 1000)
	var sa, sd, sl int64
	for j := 0; j < CurvePoints; j++ {
		sa += arrived[j]
		sd += admitted[j]
		sl += allocated[j]
		c.Arrived[j] = 100 * float64(sa) / capMilli
		c.Admitted[j] = 100 * float64(sd) / capMilli
		c.Allocated[j] = 100 * float64(sl) / capMilli
	}
	return c, nil
}

// point is the curve point of a simulated second (fill mode's seconds are
// arrived demand in %), capped at the last point.
func point(sec int64) int {
	return int(min(max(sec, 0), CurvePoints-1))
}
