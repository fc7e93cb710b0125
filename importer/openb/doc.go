// Package openb turns the Alibaba "openb" GPU cluster trace (the
// cluster-trace-gpu-v2023 release, also used by the FGD paper, ATC'23) into
// a kueue-sim scenario, and reads a replay's event log back into the
// paper's metric: the share of the cluster's GPUs allocated against the
// GPU demand that has arrived, both in % of capacity.
//
// # Cluster
//
// The node list (sn,cpu_milli,memory_mib,gpu,model) becomes one node pool
// per distinct node shape (CPU, memory, GPU count, model) and one
// ResourceFlavor per GPU model, whose nodeLabels are
// nvidia.com/gpu.product=<model> (CPU-only nodes: flavor "cpu", label
// openb.kueue-sim.io/node-class=cpu). One team "openb" with LocalQueue
// "openb" feeds one ClusterQueue whose nominal quota per flavor is exactly
// that flavor's capacity; flavors are listed cpu first, then GPU models by
// GPU count (largest first), so Kueue fills them in that order.
//
// # Tasks
//
// Every task row becomes one workload (a batch Job by default: its pod goes
// through kube-scheduler; raw Workloads skip placement). Tasks of the same
// shape (CPU, memory, GPUs, GPU share, allowed models) form one stream.
//
//   - cpu_milli and memory_mib become the pod's requests (memory_mib 0: no
//     memory request, as the trace says).
//   - GPUs, --gpu-sharing whole (default): num_gpu whole nvidia.com/gpu; a
//     fractional task (gpu_milli < 1000) takes one whole GPU, because
//     Kubernetes' device plugin resource cannot be shared. This
//     under-states what sharing reaches: a GPU holds one task.
//   - GPUs, --gpu-sharing milli: num_gpu × gpu_milli units of the extended
//     resource kueue-sim.io/gpu-milli (each node has gpu × 1000). Tasks then
//     share GPUs, but neither Kueue nor kube-scheduler sees GPU boundaries:
//     a node's free thousandths may be spread over several GPUs that no
//     real device plugin could combine. This over-states what sharing
//     reaches. The two modes bracket a GPU-sharing scheduler.
//   - gpu_spec (a |-separated list of allowed models) becomes the stream's
//     requiredNodeAffinity nvidia.com/gpu.product In [models]: Kueue only
//     assigns a flavor whose node labels meet it, and kube-scheduler only
//     places the pod on such nodes.
//
// # Modes
//
// Timed: arrival at creation_time; the run lasts deletion_time −
// scheduled_time (deletion_time − creation_time for tasks never
// scheduled), at least one second, and the pod then succeeds.
//
// Fill, the published method: tasks arrive in trace order (creation_time,
// then row order) and never leave. The task list is first resampled with
// the seed, as the published simulator does (Go's math/rand seeded with
// the seed, one discarded draw, then tasks drawn uniformly from the list
// sorted by name and appended, until the next draw would take requested
// GPUs over 130% of capacity); copies keep their original's creation time.
// Simulated time then counts arrived demand: a task arrives at second
// ceil(100 × GPUs requested so far / GPUs of the cluster), so the state at
// the end of second j is the cluster after j% of its capacity has been
// requested, the x-axis of the published curves.
//
// Bad rows (unparseable numbers, a GPU share on a task without GPUs, a
// fraction of a GPU spread over several, GPU models not in the node list,
// times out of order) are reported with file and line and stop the import;
// Options.SkipBad leaves them out, still listing each.
package openb
