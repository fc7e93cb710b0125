package openb

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Labels and resources the import uses.
const (
	// GPUProductLabel carries a GPU node's model; flavors select on it.
	GPUProductLabel = "nvidia.com/gpu.product"
	// NodeClassLabel marks CPU-only nodes (value "cpu").
	NodeClassLabel = "openb.kueue-sim.io/node-class"
	// GPUResource is a whole GPU (--gpu-sharing whole).
	GPUResource corev1.ResourceName = "nvidia.com/gpu"
	// GPUMilliResource is a thousandth of a GPU (--gpu-sharing milli).
	GPUMilliResource corev1.ResourceName = "kueue-sim.io/gpu-milli"
	// CPUFlavor is the flavor of CPU-only nodes.
	CPUFlavor = "cpu"
)

var nodeColumns = []string{"sn", "cpu_milli", "memory_mib", "gpu", "model"}

// nodeShape is what makes nodes interchangeable.
type nodeShape struct {
	cpuMilli, memMiB, gpus int64
	model                  string
}

// Inventory is the node list, grouped by shape.
type Inventory struct {
	shapes []nodeShape
	count  map[nodeShape]int
	// Models are the GPU models, by GPU count (largest first), then name.
	Models    []string
	GPUs      map[string]int64 // model → GPUs
	TotalGPUs int64
	CPUNodes  int
	Nodes     int
}

// ReadNodes reads a node list (sn,cpu_milli,memory_mib,gpu,model).
func ReadNodes(path string) (*Inventory, []BadRow, error) {
	t, bad, err := readTable(path, nodeColumns)
	if err != nil {
		return nil, nil, err
	}
	inv := &Inventory{count: map[nodeShape]int{}, GPUs: map[string]int64{}}
	for i, rec := range t.rows {
		f := &fields{t: t, rec: rec}
		sh := nodeShape{cpuMilli: f.int("cpu_milli"), memMiB: f.int("memory_mib"), gpus: f.int("gpu"), model: t.get(rec, "model")}
		switch {
		case sh.gpus > 0 && sh.model == "":
			f.errs = append(f.errs, "a GPU node without a model")
		case sh.model != "" && !modelName.MatchString(sh.model):
			f.errs = append(f.errs, fmt.Sprintf("model %q is not a label value of letters, digits, '-', '_' and '.'", sh.model))
		case sh.gpus == 0:
			sh.model = ""
		}
		if sh.cpuMilli == 0 {
			f.errs = append(f.errs, "cpu_milli is 0")
		}
		if len(f.errs) > 0 {
			bad = append(bad, BadRow{File: t.file, Line: t.lines[i], Msg: strings.Join(f.errs, "; ")})
			continue
		}
		if inv.count[sh] == 0 {
			inv.shapes = append(inv.shapes, sh)
		}
		inv.count[sh]++
		inv.Nodes++
		if sh.gpus > 0 {
			inv.GPUs[sh.model] += sh.gpus
			inv.TotalGPUs += sh.gpus
		} else {
			inv.CPUNodes++
		}
	}
	for m := range inv.GPUs {
		inv.Models = append(inv.Models, m)
	}
	sort.Slice(inv.Models, func(i, j int) bool {
		a, b := inv.Models[i], inv.Models[j]
		if inv.GPUs[a] != inv.GPUs[b] {
			return inv.GPUs[a] > inv.GPUs[b]
		}
		return a < b
	})
	sort.Slice(inv.shapes, func(i, j int) bool { return inv.shapes[i].less(inv.shapes[j]) })
	if inv.Nodes == 0 && len(bad) == 0 {
		return nil, nil, fmt.Errorf("reading %s: no nodes", path)
	}
	return inv, bad, nil
}

var modelName = regexp.MustCompile(`^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$`)

func (a nodeShape) less(b nodeShape) bool {
	if a.model != b.model {
		return a.model < b.model
	}
	if a.gpus != b.gpus {
		return a.gpus < b.gpus
	}
	if a.cpuMilli != b.cpuMilli {
		return a.cpuMilli < b.cpuMilli
	}
	return a.memMiB < b.memMiB
}

// flavorOf is the flavor of a GPU model ("" for CPU-only nodes).
func flavorOf(model string) string {
	if model == "" {
		return CPUFlavor
	}
	return strings.ToLower(strings.NewReplacer("_", "-").Replace(model))
}

func (sh nodeShape) poolName() string {
	return fmt.Sprintf("%s-%dg-%dc-%dgi", flavorOf(sh.model), sh.gpus, sh.cpuMilli/1000, sh.memMiB/1024)
}

func (sh nodeShape) allocatable(sharing Sharing) corev1.ResourceList {
	rl := corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewMilliQuantity(sh.cpuMilli, resource.DecimalSI),
		corev1.ResourceMemory: *resource.NewQuantity(sh.memMiB<<20, resource.BinarySI),
	}
	if sh.gpus > 0 {
		if sharing == Milli {
			rl[GPUMilliResource] = *resource.NewQuantity(sh.gpus*1000, resource.DecimalSI)
		} else {
			rl[GPUResource] = *resource.NewQuantity(sh.gpus, resource.DecimalSI)
		}
	}
	return rl
}

// pools are one node pool per shape.
func (inv *Inventory) pools(sharing Sharing) []nodes.Pool {
	var out []nodes.Pool
	used := map[string]int{}
	for _, sh := range inv.shapes {
		name := sh.poolName()
		if used[name]++; used[name] > 1 {
			name = fmt.Sprintf("%s-%d", name, used[name])
		}
		labels := map[string]string{NodeClassLabel: "cpu"}
		if sh.gpus > 0 {
			labels = map[string]string{GPUProductLabel: sh.model}
		}
		out = append(out, nodes.Pool{Name: name, Count: inv.count[sh], Labels: labels, Allocatable: sh.allocatable(sharing)})
	}
	return out
}

// flavors are one ResourceFlavor per GPU model, and "cpu" for CPU-only
// nodes, in the order Kueue should try them.
func (inv *Inventory) flavors() []scenarios.ResourceFlavor {
	var out []scenarios.ResourceFlavor
	if inv.CPUNodes > 0 {
		out = append(out, scenarios.ResourceFlavor{Name: CPUFlavor, NodeLabels: map[string]string{NodeClassLabel: "cpu"}})
	}
	for _, m := range inv.Models {
		out = append(out, scenarios.ResourceFlavor{Name: flavorOf(m), NodeLabels: map[string]string{GPUProductLabel: m}})
	}
	return out
}

// clusterQueue has each flavor's capacity as its nominal quota.
func (inv *Inventory) clusterQueue(name string, sharing Sharing) scenarios.ClusterQueue {
	gpuRes := GPUResource
	if sharing == Milli {
		gpuRes = GPUMilliResource
	}
	type capacity struct{ cpu, mem, gpu int64 }
	caps := map[string]*capacity{}
	for _, sh := range inv.shapes {
		fl := flavorOf(sh.model)
		if caps[fl] == nil {
			caps[fl] = &capacity{}
		}
		n := int64(inv.count[sh])
		caps[fl].cpu += n * sh.cpuMilli
		caps[fl].mem += n * sh.memMiB
		g := n * sh.gpus
		if sharing == Milli {
			g *= 1000
		}
		caps[fl].gpu += g
	}
	var group scenarios.ResourceGroup
	for _, f := range inv.flavors() {
		c := caps[f.Name]
		group.Flavors = append(group.Flavors, scenarios.FlavorQuotas{Name: f.Name, Resources: map[corev1.ResourceName]scenarios.Quota{
			corev1.ResourceCPU:    {Nominal: *resource.NewMilliQuantity(c.cpu, resource.DecimalSI)},
			corev1.ResourceMemory: {Nominal: *resource.NewQuantity(c.mem<<20, resource.BinarySI)},
			gpuRes:                {Nominal: *resource.NewQuantity(c.gpu, resource.DecimalSI)},
		}})
	}
	return scenarios.ClusterQueue{Name: name, ResourceGroups: []scenarios.ResourceGroup{group}}
}
