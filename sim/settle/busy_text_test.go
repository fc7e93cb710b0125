package settle

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// textKind and textChurn are the rules the settle applied to busy reasons
// while they were strings: a prefix or suffix of the message picked the
// kind. Every typed reason agrees with them, so Result.SettleWaits' keys,
// the retry rule and the warnings read as they always have.
func textKind(busy string) string {
	switch {
	case strings.HasPrefix(busy, "workqueue_depth"), strings.HasPrefix(busy, "controller_runtime_active_workers"):
		for _, l := range []string{"controller=", "name="} {
			if i := strings.Index(busy, l); i >= 0 {
				name := busy[i+len(l):]
				if j := strings.IndexAny(name, ",}"); j >= 0 {
					name = name[:j]
				}
				return busy[:strings.IndexByte(busy, '{')] + "{" + name + "}"
			}
		}
		return busy
	case strings.HasPrefix(busy, "Kueue has"):
		return "Kueue has workloads to try"
	case strings.HasPrefix(busy, "pod "), strings.HasPrefix(busy, "job "), strings.HasPrefix(busy, "statefulset "),
		strings.HasPrefix(busy, "replicaset "), strings.HasPrefix(busy, "deployment "):
		if f := strings.Fields(busy); len(f) > 2 {
			return f[0] + " " + strings.Join(f[2:], " ")
		}
	}
	if strings.HasPrefix(busy, "informers have not delivered every write") {
		return busy
	}
	if strings.HasPrefix(busy, "Kueue holds ") {
		return "Kueue's quota reservations not yet in the API"
	}
	if f := strings.Fields(busy); len(f) > 1 && strings.HasSuffix(busy, "still hold quota") {
		if _, err := strconv.Atoi(f[0]); err == nil {
			return strings.Join(f[1:], " ")
		}
	}
	if i := strings.IndexByte(busy, ':'); i > 0 {
		return busy[:i]
	}
	return busy
}

func textChurn(busy string) (churn, starts bool) {
	starts = strings.HasPrefix(busy, "Kueue has")
	return starts || busy == "etcd keeps changing" || strings.HasPrefix(busy, "informers have not delivered every write"), starts
}

// everyKind is one reason of every kind, made the way the settle and the
// engine make them.
func everyKind() []Busy {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p-0"}}
	bound := pod.DeepCopy()
	bound.Spec.NodeName, bound.Status.Phase = "n", corev1.PodPending
	gone := pod.DeepCopy()
	gone.DeletionTimestamp = &metav1.Time{}
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "nb", Generation: 1}}
	_, stsBusy := appsBusy(sts)
	_, rsBusy := appsBusy(&appsv1.ReplicaSet{ObjectMeta: sts.ObjectMeta})
	_, depBusy := appsBusy(&appsv1.Deployment{ObjectMeta: sts.ObjectMeta})
	_, first := activeIn(kueuePendingFamily(12))
	return []Busy{
		{Kind: EtcdChanging},
		{Kind: InformersBehind, Object: "workloads.kueue.x-k8s.io"},
		gaugeBusy("workqueue_depth", gauge(2, "controller", "workload_controller", "name", "workload_controller", "priority", "")),
		gaugeBusy("workqueue_depth", gauge(2, "controller", "", "name", "some-queue", "priority", "")),
		gaugeBusy("workqueue_depth", gauge(1, "name", "job")),
		gaugeBusy("workqueue_depth", gauge(1)),
		gaugeBusy("controller_runtime_active_workers", gauge(1, "controller", "pod")),
		first,
		{Kind: KueueNoWorkload, Object: "team/job-0"},
		{Kind: KueueNotQueued, Object: "team/job-0-abcde"},
		podBusy(pod), podBusy(bound), podBusy(gone),
		{Kind: JobWaits, Object: "ns/j", Detail: "kube-controller-manager has not counted its ended pods"},
		stsBusy, rsBusy, depBusy,
		Reservations("cq", 3, 2),
		EvictionsPending(1000000),
		EvictionsFailed(errors.New("completing the eviction of Workload a/b: conflict")),
	}
}

func TestTypedReasonsReadAsText(t *testing.T) {
	for _, b := range everyKind() {
		text := b.String()
		if text == "" {
			t.Errorf("%#v renders as nothing", b)
			continue
		}
		if got, want := b.reasonKind(), textKind(text); got != want {
			t.Errorf("%q: reasonKind = %q, the text says %q", text, got, want)
		}
		churn, starts := textChurn(text)
		if b.kueueChurn() != churn || b.startsTrying() != starts {
			t.Errorf("%q: churn, starts trying = %v, %v; the text says %v, %v", text, b.kueueChurn(), b.startsTrying(), churn, starts)
		}
	}
	if (Busy{}).String() != "" || !(Busy{}).IsZero() {
		t.Error("the zero Busy is not quiet")
	}
}

// kueuePendingFamily is Kueue's pending gauge at n active workloads in
// ClusterQueue cq, as gathered.
func kueuePendingFamily(n float64) *dto.MetricFamily {
	mfs, err := kueuePending(n).Gather()
	if err != nil || len(mfs) != 1 {
		panic(err)
	}
	return mfs[0]
}
