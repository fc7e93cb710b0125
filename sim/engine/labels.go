package engine

// Labels the engine puts on every object it creates, and that Kueue copies
// to Workloads (integrations.labelKeysToCopy) and pod templates carry to
// pods, so that every observation maps back to a scenario workload.
const (
	WorkloadLabel = "kueue-sim.io/workload"
	StreamLabel   = "kueue-sim.io/stream"
	// QueueNameLabel and PriorityClassLabel are Kueue's.
	QueueNameLabel     = "kueue.x-k8s.io/queue-name"
	PriorityClassLabel = "kueue.x-k8s.io/priority-class"
)
