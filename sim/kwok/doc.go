// Package kwok makes kueue-sim's container-free test cluster: kwokctl's
// binary runtime (sigs.k8s.io/kwok v0.8.0) runs the kube-apiserver, etcd,
// kube-scheduler and kube-controller-manager that `sim tools install` built, as
// plain processes, and the kwok controller fakes the nodes and the pods on
// them. Nothing runs in a container.
//
// Config writes the kwokctl configuration file: the binary runtime, the
// paths of the cached binaries, and the stages kwok applies. They are kwok's
// "fast" stages without pod completion: a pod goes Running as soon as it is
// bound and keeps running until someone writes its end, as kueue-sim's
// engine does for a kubelet (see engine.ExternalTarget). A Job's pods would
// otherwise finish at once, before their simulated run time.
//
// CreateNodes makes fake GPU nodes from the same node pools the embedded
// control plane uses (package nodes), annotated for kwok, which then reports
// them Ready and keeps their leases alive.
//
// kwok and kwokctl need k8s.io v0.36 and go 1.26, so they are not in
// kueue-sim's go.mod: `sim tools install --kwok` (sim/tools; `make kwok`)
// builds them with `go install` into the folder of the other binaries.
package kwok
