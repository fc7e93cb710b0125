// Package reconciler is kueue-sim's stand-in for OpenShift AI's Kueue
// integration: the part of the platform operator that turns the
// DataScienceCluster's spec.components.kueue into Kueue objects, and the
// part of the dashboard that makes new data science projects
// Kueue-managed. It runs in the same controller-runtime manager as the real
// Kueue (Setup, or SetupFunc for cluster.WithSetup) and never does Kueue's
// own work: admission, preemption and quota accounting stay with Kueue.
//
// # One platform, one request
//
// The platform controller works on a single request. Whatever changes — a
// DataScienceCluster's spec, a Kueue-managed namespace, a node's
// allocatable, the deletion of a default queue or flavor, the Kueue
// operator's CRD, the deletion of the operator's Kueue CR — the reconcile
// looks at the whole cluster again. It acts on one DataScienceCluster, the
// oldest; any other gets a KueueReady condition saying it is ignored.
//
// # What each management state does
//
// decide turns (spec state, state last acted on, operator installed) into a
// plan; "the operator is installed" means its CRD, kueues.kueue.openshift.io,
// exists and is established.
//
//   - Unmanaged with the operator: create the operator's Kueue CR "cluster"
//     when absent (frameworks PyTorchJob, RayJob, RayCluster, Pod,
//     Deployment, StatefulSet), put both managed labels on Kueue-managed
//     namespaces, create the absent defaults; KueueReady True.
//   - Unmanaged without the operator: stop; KueueReady False naming the
//     missing operator and how to install it. Nothing is created or changed.
//   - Managed (the deprecated embedded Kueue) without the operator: labels
//     and defaults as for Unmanaged but no Kueue CR (in kueue-sim the
//     in-process Kueue plays the embedded one); KueueReady False, reason
//     ManagedDeprecated, telling to migrate to Unmanaged.
//   - Managed with the operator: stop; the two would manage the same
//     resources. Nothing is created or changed.
//   - Removed, or empty: nothing is created and queue names are not
//     enforced (the webhooks read the spec state). Leaving Unmanaged leaves
//     the Kueue CR, the operator and the defaults in place; leaving Managed
//     deletes what was created while Managed (objects labelled
//     kueue-sim.io/created-under=Managed), told apart by
//     status.components.kueue.managementState, the state last acted on.
//     A stop keeps that state, so leaving Managed later still cleans up.
//
// # Defaults
//
// The ResourceFlavors default-flavor, nvidia-gpu-flavor and amd-gpu-flavor
// (a GPU one only once some node has that GPU); a ClusterQueue named
// defaultClusterQueueName that never preempts (withinClusterQueue and
// reclaimWithinCohort Never), selects namespaces labelled
// kueue.openshift.io/managed=true, and whose quota is the sum of the nodes'
// allocatable when it is created (cpu and memory in default-flavor, each GPU
// in its flavor); a LocalQueue named defaultLocalQueueName in every
// Kueue-managed namespace. Each is created only when absent, annotated
// opendatahub.io/managed=false and labelled platform.opendatahub.io/part-of=kueue,
// and is never read or updated again: an admin's edit survives every later
// reconcile, and nodes that join later do not change the quota.
//
// A default the admin deletes is absent, so the platform re-creates it on
// its next reconcile — at once, since it watches those deletions — built
// afresh from the current nodes: the deleted object's edits are not carried
// over. To keep a default from taking effect, edit it (for example a
// ClusterQueue with stopPolicy Hold or no quota) rather than delete it, or
// set the state to Removed.
//
// # Dashboard projects
//
// Dashboard plays the dashboard: a namespace created with the label
// opendatahub.io/dashboard=true gets kueue.openshift.io/managed=true if, when
// it is created, Kueue is Managed or Unmanaged in the DataScienceCluster spec
// and no OdhDashboardConfig sets disableKueue. It reads the spec only, as the
// dashboard does, so it labels projects even while the platform controller
// is stopped. Namespaces created any other way, namespaces that already
// carry a managed label (whatever its value), and namespaces that existed
// before are left alone.
//
// # Conditions and events
//
// Every outcome is the DataScienceCluster's KueueReady condition (type,
// reason, a message saying what to do; reasons in package
// api/datasciencecluster/v1) and, when it changes, an event on the
// DataScienceCluster: Warning for a stop or a refusal, Normal otherwise. A
// step the API server refuses (a webhook or admission policy on the Kueue CR,
// a default, a namespace label) stops the plan with reason KueueCRFailed,
// DefaultsFailed or NamespacesFailed and the refusal in the message; the
// request is retried with back-off. Creations and deletions of defaults are
// Normal events too. Condition times come from the clock given WithClock.
//
// Deleting the DataScienceCluster stops the platform acting; nothing is
// removed.
package reconciler
