package settle

import (
	"fmt"
	"strconv"
)

// BusyKind is what keeps the control plane from being quiet.
type BusyKind int

// The kinds of busy reason. Each names, in Busy.Object, what it is about;
// Busy.Detail holds the rest of its message as described here.
const (
	// NotBusy is the zero Busy: nothing is going on.
	NotBusy BusyKind = iota
	// EtcdChanging: etcd's revision moved since the last poll.
	EtcdChanging
	// InformersBehind: Object is a resource with a write in etcd that the
	// manager's informers have not delivered yet.
	InformersBehind
	// WorkQueue and ActiveWorkers: an in-process controller's
	// workqueue_depth or controller_runtime_active_workers gauge is above
	// zero. Object is the controller (or, lacking one, the queue) the
	// gauge names; Detail is the gauge as read.
	WorkQueue
	ActiveWorkers
	// KueueTrying: Kueue's pending gauge shows active workloads. Object is
	// the first ClusterQueue with any, Detail their count.
	KueueTrying
	// KueueNoWorkload and KueueNotQueued: a held instant's arrival (Object,
	// namespace/name) whose Workload Kueue has not made, or has not queued.
	// Their messages start as KueueTrying's does ("Kueue has"), and the
	// settle treats them as it does Kueue's pending gauge: they count as
	// Kueue trying, towards the retry rule and in the waits.
	KueueNoWorkload
	KueueNotQueued
	// PodWaits: a pod (Object) that kube-scheduler or the kubelet still
	// owes work, or that is terminating; Detail says which.
	PodWaits
	// JobWaits: a Job (Object) that kube-controller-manager still owes
	// work; Detail says what.
	JobWaits
	// StatefulSetWaits, ReplicaSetWaits, DeploymentWaits: an apps object
	// (Object) its controller is still reconciling.
	StatefulSetWaits
	ReplicaSetWaits
	DeploymentWaits
	// ReservationsNotInAPI: Kueue's scheduler cache holds a different
	// number of quota reservations in a ClusterQueue (Object) than the API
	// shows; Detail is the whole message.
	ReservationsNotInAPI
	// EvictionsHoldQuota: Detail evicted raw Workloads whose eviction the
	// engine has not completed yet.
	EvictionsHoldQuota
	// EvictionsFailing: completing an eviction failed with Detail.
	EvictionsFailing
	// Other: any other reason; Detail is its whole message.
	Other
)

// Busy says what keeps the control plane from being quiet. Its zero value
// means nothing does.
type Busy struct {
	Kind   BusyKind
	Object string
	Detail string
}

// IsZero tells whether nothing is going on.
func (b Busy) IsZero() bool { return b.Kind == NotBusy }

// The messages' fixed parts. Users read them: in events.jsonl's NotSettled
// and KueueRetriedWithoutProgress warnings, and (through reasonKind) as
// the keys of Result.SettleWaits.
const (
	etcdChangingText    = "etcd keeps changing"
	informersBehindText = "informers have not delivered every write"
	kueueTryingKind     = "Kueue has workloads to try"
)

// String is the reason as users read it.
func (b Busy) String() string {
	switch b.Kind {
	case NotBusy:
		return ""
	case EtcdChanging:
		return etcdChangingText
	case InformersBehind:
		return informersBehindText + ": " + b.Object
	case KueueTrying:
		return "Kueue has " + b.Detail + " workloads to try in ClusterQueue " + b.Object
	case KueueNoWorkload:
		return "Kueue has not made the Workload of " + b.Object
	case KueueNotQueued:
		return "Kueue has not queued Workload " + b.Object
	case PodWaits:
		return "pod " + b.Object + " " + b.Detail
	case JobWaits:
		return "job " + b.Object + ": " + b.Detail
	case StatefulSetWaits, ReplicaSetWaits, DeploymentWaits:
		return appsWord(b.Kind) + " " + b.Object + " is being reconciled"
	case EvictionsHoldQuota:
		return b.Detail + " evicted raw Workloads still hold quota"
	case EvictionsFailing:
		return "completing evictions: " + b.Detail
	}
	// WorkQueue, ActiveWorkers, ReservationsNotInAPI, Other.
	return b.Detail
}

// reasonKind is the reason without the object it names: "pod waits for
// kube-scheduler", "workqueue_depth{workload}", ... Settler.Waits counts
// busy polls by it, so a run's report shows where settling time goes.
func (b Busy) reasonKind() string {
	switch b.Kind {
	case WorkQueue:
		return "workqueue_depth{" + b.Object + "}"
	case ActiveWorkers:
		return "controller_runtime_active_workers{" + b.Object + "}"
	case KueueTrying, KueueNoWorkload, KueueNotQueued:
		return kueueTryingKind
	case PodWaits:
		return "pod " + b.Detail
	case JobWaits:
		return "job " + b.Detail
	case StatefulSetWaits, ReplicaSetWaits, DeploymentWaits:
		return appsWord(b.Kind) + " is being reconciled"
	case ReservationsNotInAPI:
		return "Kueue's quota reservations not yet in the API"
	case EvictionsHoldQuota:
		return "evicted raw Workloads still hold quota"
	case EvictionsFailing:
		return "completing evictions"
	}
	// EtcdChanging, InformersBehind (it names a resource: few), Other.
	return b.String()
}

// startsTrying tells whether b starts (or restarts) the retry rule's
// clock: Kueue's pending gauge, and the held instant's reasons worded as
// it is.
func (b Busy) startsTrying() bool {
	switch b.Kind {
	case KueueTrying, KueueNoWorkload, KueueNotQueued:
		return true
	}
	return false
}

// kueueChurn tells whether b may be Kueue retrying workloads it cannot
// admit: its pending gauge itself, or the writes a retry makes (etcd's
// revision moving, the informers a moment behind it). Kueue rewrites a
// pending workload's QuotaReserved message at each try, and a message that
// alternates (one pod set short, then another) makes every try a write that
// requeues the workload at once; none of that resets the retry rule.
func (b Busy) kueueChurn() bool {
	return b.startsTrying() || b.Kind == EtcdChanging || b.Kind == InformersBehind
}

func appsWord(k BusyKind) string {
	switch k {
	case StatefulSetWaits:
		return "statefulset"
	case ReplicaSetWaits:
		return "replicaset"
	}
	return "deployment"
}

// Reservations is the busy reason of a ClusterQueue where Kueue's
// scheduler cache holds kueue quota reservations and the API shows api.
func Reservations(clusterQueue string, kueue, api int) Busy {
	return Busy{Kind: ReservationsNotInAPI, Object: clusterQueue,
		Detail: fmt.Sprintf("Kueue holds %d quota reservations in ClusterQueue %s, the API shows %d", kueue, clusterQueue, api)}
}

// EvictionsPending is the busy reason of n evicted raw Workloads whose
// eviction is not complete yet.
func EvictionsPending(n int) Busy {
	return Busy{Kind: EvictionsHoldQuota, Detail: strconv.Itoa(n)}
}

// EvictionsFailed is the busy reason of an eviction that could not be
// completed.
func EvictionsFailed(err error) Busy {
	return Busy{Kind: EvictionsFailing, Detail: err.Error()}
}
