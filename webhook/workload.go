package webhook

import (
	"fmt"
	"maps"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kueue/pkg/controller/constants"

	dashboardv1 "github.com/kueue-sim/kueue-sim/api/dashboard/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// Labels and annotations the rules read or write.
const (
	// QueueLabel names the Kueue LocalQueue of a workload.
	QueueLabel = constants.QueueLabel
	// PriorityClassLabel names the Kueue WorkloadPriorityClass of a workload.
	PriorityClassLabel = constants.WorkloadPriorityClassLabel
	// HardwareProfileNameAnnotation names the workload's HardwareProfile.
	HardwareProfileNameAnnotation = infrav1.HardwareProfileNameAnnotation
	// HardwareProfileNamespaceAnnotation names its namespace (default: the
	// workload's own).
	HardwareProfileNamespaceAnnotation = infrav1.HardwareProfileNamespaceAnnotation
	// AcceleratorNameAnnotation names a (deprecated) AcceleratorProfile.
	AcceleratorNameAnnotation = dashboardv1.AcceleratorNameAnnotation
)

// Kind is one of the workload kinds the platform's Kueue policy covers, with
// the group, version and resource the webhooks are registered for.
type Kind struct {
	schema.GroupVersionKind
	Resource string
}

// GroupVersionResource returns the kind's resource.
func (k Kind) GroupVersionResource() schema.GroupVersionResource {
	return k.GroupVersion().WithResource(k.Resource)
}

// The kinds the rules cover.
var (
	Notebook         = Kind{schema.GroupVersionKind{Group: "kubeflow.org", Version: "v1", Kind: "Notebook"}, "notebooks"}
	InferenceService = Kind{schema.GroupVersionKind{Group: "serving.kserve.io", Version: "v1beta1", Kind: "InferenceService"}, "inferenceservices"}
	PyTorchJob       = Kind{schema.GroupVersionKind{Group: "kubeflow.org", Version: "v1", Kind: "PyTorchJob"}, "pytorchjobs"}
	RayCluster       = Kind{schema.GroupVersionKind{Group: "ray.io", Version: "v1", Kind: "RayCluster"}, "rayclusters"}
	RayJob           = Kind{schema.GroupVersionKind{Group: "ray.io", Version: "v1", Kind: "RayJob"}, "rayjobs"}
)

// Kinds lists the covered kinds.
func Kinds() []Kind { return []Kind{Notebook, InferenceService, PyTorchJob, RayCluster, RayJob} }

// KindOf returns the covered kind with group and kind of gk.
func KindOf(gk schema.GroupKind) (Kind, bool) {
	for _, k := range Kinds() {
		if k.GroupKind() == gk {
			return k, true
		}
	}
	return Kind{}, false
}

// Workload is what the rules read of an object of a covered kind: its
// identity and metadata. Default changes Labels.
type Workload struct {
	Kind        string
	Namespace   string
	Name        string
	Labels      map[string]string
	Annotations map[string]string
	// Deleting is true once the object has a deletion timestamp.
	Deleting bool
}

// WorkloadOf reads a Workload of the given kind from an object's metadata.
// The maps are copies.
func WorkloadOf(kind string, obj metav1.Object) *Workload {
	name := obj.GetName()
	if name == "" && obj.GetGenerateName() != "" {
		name = obj.GetGenerateName() + "*"
	}
	return &Workload{
		Kind:        kind,
		Namespace:   obj.GetNamespace(),
		Name:        name,
		Labels:      maps.Clone(obj.GetLabels()),
		Annotations: maps.Clone(obj.GetAnnotations()),
		Deleting:    obj.GetDeletionTimestamp() != nil,
	}
}

// String names the workload for messages: Notebook "nb" in namespace "team-a".
func (w *Workload) String() string {
	return fmt.Sprintf("%s %q in namespace %q", w.Kind, w.Name, w.Namespace)
}

// Queue returns the queue-name label and whether it is set.
func (w *Workload) Queue() (string, bool) {
	q, ok := w.Labels[QueueLabel]
	return q, ok
}

// ProfileRef returns the namespace and name of the workload's hardware
// profile, or ok=false when it names none.
func (w *Workload) ProfileRef() (namespace, name string, ok bool) {
	name = w.Annotations[HardwareProfileNameAnnotation]
	if name == "" {
		return "", "", false
	}
	namespace = w.Annotations[HardwareProfileNamespaceAnnotation]
	if namespace == "" {
		namespace = w.Namespace
	}
	return namespace, name, true
}

func (w *Workload) setLabel(k, v string) {
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels[k] = v
}

// Field paths of the messages.
var (
	labelsPath      = field.NewPath("metadata", "labels")
	annotationsPath = field.NewPath("metadata", "annotations")
	queuePath       = labelsPath.Key(QueueLabel)
	profilePath     = annotationsPath.Key(HardwareProfileNameAnnotation)
	acceleratorPath = annotationsPath.Key(AcceleratorNameAnnotation)
)

// Rules name the rules; each rule's errors carry its name as their Origin.
const (
	RuleQueueLabel         = "queueLabel"         // rule 1
	RuleHardwareProfile    = "hardwareProfile"    // rule 2
	RuleNodeProfile        = "nodeProfile"        // rule 3
	RuleAcceleratorProfile = "acceleratorProfile" // rule 4
	RuleNotebookQueue      = "notebookQueue"      // rule 5
)
