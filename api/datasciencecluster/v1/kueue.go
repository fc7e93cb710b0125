package v1

import (
	"sort"
)

// State is the management state the platform acts on: an empty state is
// Removed.
func (k KueueComponent) State() ManagementState {
	if k.ManagementState == "" {
		return Removed
	}
	return k.ManagementState
}

// Enabled reports whether the platform enforces queues for Kueue: Managed or
// Unmanaged.
func (k KueueComponent) Enabled() bool {
	s := k.State()
	return s == Managed || s == Unmanaged
}

// ClusterQueueName is defaultClusterQueueName, or "default" when unset.
func (k KueueComponent) ClusterQueueName() string {
	if k.DefaultClusterQueueName == "" {
		return DefaultQueueName
	}
	return k.DefaultClusterQueueName
}

// LocalQueueName is defaultLocalQueueName, or "default" when unset.
func (k KueueComponent) LocalQueueName() string {
	if k.DefaultLocalQueueName == "" {
		return DefaultQueueName
	}
	return k.DefaultLocalQueueName
}

// Active returns the DataScienceCluster the platform acts on: the oldest one
// not being deleted (ties broken by name), and the others, which the
// platform refuses. It returns nil when there is none.
func Active(items []DataScienceCluster) (active *DataScienceCluster, others []*DataScienceCluster) {
	ptrs := make([]*DataScienceCluster, 0, len(items))
	for i := range items {
		if items[i].DeletionTimestamp == nil {
			ptrs = append(ptrs, &items[i])
		}
	}
	sort.SliceStable(ptrs, func(i, j int) bool {
		a, b := ptrs[i].CreationTimestamp, ptrs[j].CreationTimestamp
		if !a.Equal(&b) {
			return a.Before(&b)
		}
		return ptrs[i].Name < ptrs[j].Name
	})
	if len(ptrs) == 0 {
		return nil, nil
	}
	return ptrs[0], ptrs[1:]
}
