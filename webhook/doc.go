// Package webhook holds kueue-sim's admission webhooks: the OpenShift AI
// platform's Kueue policy for the workload kinds its users create (Notebook,
// InferenceService, PyTorchJob, RayCluster, RayJob).
//
// Each rule is a plain function over a Workload (the metadata the rules read)
// and the cluster objects it refers to, returning a field.ErrorList, in the
// style of Kueue's pkg/webhooks. Default and Validate fetch those objects
// through a Facts and run the rules in the order the API server would; the
// admission handlers in handler.go only decode the request and turn the
// result into a response. `sim lint` (package lint) runs the same Default and
// Validate over a set of objects held in memory.
//
// The rules:
//
//  1. Queue label. In a Kueue-managed namespace (label
//     kueue.openshift.io/managed=true or legacy kueue-managed=true), while the
//     active DataScienceCluster has Kueue Managed or Unmanaged, a workload
//     must carry a non-empty kueue.x-k8s.io/queue-name label (CREATE and
//     UPDATE).
//  2. Hardware profile → queue (mutating). A workload annotated
//     opendatahub.io/hardware-profile-name (namespace from
//     opendatahub.io/hardware-profile-namespace, default its own) whose
//     profile has scheduling type Queue gets the profile's LocalQueue as its
//     queue-name label and the profile's priority class as its
//     kueue.x-k8s.io/priority-class label. A different existing value is
//     replaced with a warning; a missing profile is refused. Mutating
//     webhooks run before validating ones, so a profile satisfies rule 1.
//  3. Node profiles. In a Kueue-managed namespace, a workload whose hardware
//     profile has scheduling type Node is refused: placement must come from
//     a LocalQueue whose ResourceFlavor carries the node labels.
//  4. Accelerator profiles. In a Kueue-managed namespace, a workload
//     annotated opendatahub.io/accelerator-name is refused: AcceleratorProfiles
//     are deprecated in favour of hardware profiles.
//  5. Notebooks are not preemptible. In a Kueue-managed namespace, a Notebook
//     may only name a LocalQueue whose ClusterQueue is non-preemptive:
//     preemption.withinClusterQueue Never, reclaimWithinCohort Never, and,
//     if it can borrow in a cohort, no other ClusterQueue of that cohort tree
//     can reclaim what it borrows. A LocalQueue or ClusterQueue that does not
//     exist is refused too: nothing shows it is non-preemptive.
//
// On UPDATE, rules 2 to 5 apply only when the object changes what they read
// (its profile or accelerator annotation, its queue label): an object
// admitted earlier is neither relabelled nor wedged by a later change of a
// profile or ClusterQueue (`sim lint` reports those). Rule 1 applies to
// every UPDATE. Objects being deleted are always allowed.
//
// Every webhook fails closed (failurePolicy Fail): while the handler cannot
// be reached, affected objects are refused, never admitted unchecked.
// Configurations returns the webhook configurations for the embedded control
// plane; config/webhook/kueue-sim holds the same for real clusters.
package webhook
