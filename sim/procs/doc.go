// Package procs runs the control plane's child processes and makes sure none
// of them outlives kueue-sim.
//
// Three mechanisms work together:
//
//   - Process starts a child with Pdeathsig, so the kernel kills it when
//     kueue-sim dies, and stops it with SIGTERM, then SIGKILL after a grace
//     period.
//   - RunDir is a folder per running kueue-sim, holding the child processes'
//     files (etcd data, certificates, kubeconfigs, logs) and a record of every
//     child's PID and start time, including those envtest starts.
//   - CleanupStale, called at start, finds the run folders of kueue-sim
//     processes that are gone (for example killed with SIGKILL), kills the
//     children they recorded that are still alive, and removes the folders.
package procs
