// Package cluster starts and stops kueue-sim's embedded control plane:
//
//   - a real kube-apiserver and etcd (controller-runtime's envtest), with
//     Kueue's, the job operators' and kueue-sim's CRDs installed;
//   - the real kube-scheduler and kube-controller-manager as child processes;
//   - one in-process controller-runtime manager running the real Kueue (core,
//     scheduler, job integrations, webhooks served over TLS), kueue-sim's fake
//     kubelet, and whatever else the caller adds (the OpenShift AI reconciler
//     and webhooks);
//   - Ready fake nodes built from node-pool specs.
//
// Start returns once every part is serving; Stop ends them in order (the
// manager, then scheduler and controller-manager, then kube-apiserver, then
// etcd). Done reports a part that dies on its own. Nothing outlives the
// process: see package procs.
//
// Connect is the same in-process manager against an existing cluster (a
// kubeconfig): `sim serve` and `sim run --kubeconfig`. The cluster brings
// the API server, scheduler, controller manager and nodes (KWOK ones, or
// real); Connect installs the CRDs it needs without touching others', serves
// the webhooks over TLS with a certificate it makes and registers their
// configurations with the URL and CA bundle the API server needs, and Stop
// deletes them again. Kueue can be left to the cluster (WithoutKueue), and
// certificates and webhook configurations to manifests (WithServingCertDir),
// as in config/deploy.
package cluster
