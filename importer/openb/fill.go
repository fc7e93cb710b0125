package openb

import (
	"fmt"
	"math/rand" //nolint:depguard // v1 on purpose: the published simulator's draws
	"sort"
)

// DefaultTune is the published demand target: 130% of the cluster's GPUs.
const DefaultTune = 1.3

// resample appends copies of randomly drawn tasks until the next draw would
// take the requested GPUs over tune × capacity, as the published simulator
// (hkust-adsl/kubernetes-scheduler-simulator, tuneUpPods) does: Go's
// math/rand seeded with the seed, one draw discarded (the simulator logs
// one), indexes drawn uniformly over the tasks sorted by name. Like the
// simulator, the stop test adds the drawn task's share of one GPU, and the
// running total its full demand. With demand already over the target,
// nothing is added (the published simulator would remove tasks; the openb
// lists are all below it).
func resample(tasks []Task, capacityGPUs int64, tune float64, seed int64) []Task {
	byName := append([]Task(nil), tasks...)
	sort.SliceStable(byName, func(i, j int) bool { return byName[i].Name < byName[j].Name })
	var total, gpuTasks int64
	for _, t := range tasks {
		total += t.TotalMilli()
		if t.GPUs > 0 {
			gpuTasks++
		}
	}
	target := tune * float64(capacityGPUs*1000)
	if gpuTasks == 0 || float64(total) >= target {
		return tasks // CPU-only lists never reach a GPU target
	}
	rng := rand.New(rand.NewSource(seed)) //nolint:gosec // reproducibility, not secrecy
	_ = rng.Int()
	out := append([]Task(nil), tasks...)
	for i := 0; ; i++ {
		t := byName[rng.Intn(len(byName))]
		if float64(total+t.GPUMilli) > target {
			break
		}
		total += t.TotalMilli()
		t.Name = fmt.Sprintf("%s-tuned-%d", t.Name, i)
		out = append(out, t)
	}
	return out
}

// demandSeconds gives each task (in arrival order) its arrival second in
// fill mode: ceil(100 × GPUs requested up to and including it / capacity),
// so second j holds the tasks that bring arrived demand to j% of capacity.
func demandSeconds(tasks []Task, capacityGPUs int64) []int64 {
	out := make([]int64, len(tasks))
	var cum int64
	capMilli := capacityGPUs * 1000
	for i, t := range tasks {
		cum += t.TotalMilli()
		out[i] = (cum*100 + capMilli - 1) / capMilli
	}
	return out
}
