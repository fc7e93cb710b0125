package scenarios

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Change changes the cluster's objects at a simulated time, as an
// administrator does while workloads run: at At, the objects of Apply's
// files are applied, then Delete's objects are deleted.
//
// Applying an object creates it, or, where an object of its kind,
// namespace and name exists, replaces that object's spec, labels and
// annotations with the file's (the file holds the whole object, as with
// `kubectl replace`; the status stays Kueue's). A ClusterQueue applied with
// stopPolicy: HoldAndDrain is stopped; the same ClusterQueue applied again
// without it runs again.
type Change struct {
	// At is the simulated time of the change, from the run's start.
	At metav1.Duration `json:"at"`
	// Apply are files, folders or globs, relative to the scenario, of the
	// objects queues.manifests takes (Kueue's objects, Namespaces,
	// LocalQueues, OpenShift AI's).
	Apply []string `json:"apply,omitempty"`
	// Delete are objects to delete, by kind and name.
	Delete []ObjectRef `json:"delete,omitempty"`
}

// ObjectRef names one of Kueue's objects: a ClusterQueue, LocalQueue,
// ResourceFlavor, Cohort, WorkloadPriorityClass or Topology.
type ObjectRef struct {
	Kind string `json:"kind"`
	// Namespace is a LocalQueue's; the other kinds have none.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// DeletableKinds are the kinds a change may delete, and whether each is
// namespaced.
var DeletableKinds = map[string]bool{
	"ClusterQueue": false, "LocalQueue": true, "ResourceFlavor": false,
	"Cohort": false, "WorkloadPriorityClass": false, "Topology": false,
}
