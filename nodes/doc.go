// Package nodes turns node-pool specs into Ready Node objects for the
// embedded control plane: a pool is a count of identical nodes with labels
// (such as nvidia.com/gpu.product), allocatable resources and taints.
//
// Placement is kube-scheduler's: nodes carry the labels, capacity and taints,
// and the real scheduler matches pods to them.
package nodes
