// Package bench measures kueue-sim on large runs: Kueue's
// scheduler-performance baseline shape (scenarios/bench) at several sizes,
// with raw Workloads and with Jobs, and the openb fill replay. Figures: wall
// time, simulated workloads per wall second, peak RSS of the whole process
// tree (sim, kube-apiserver, etcd, kube-scheduler, kube-controller-manager)
// and API writes per workload, read from kube-apiserver's own request
// counter. `make bench` runs the benchmarks; nothing here asserts a time.
package bench
