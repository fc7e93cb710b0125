package settle

import (
	"errors"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"k8s.io/utils/ptr"
)

// gauge is a work-queue gauge's metric with labels (name, value pairs, in
// the sorted order Prometheus keeps them) at v.
func gauge(v float64, labels ...string) *dto.Metric {
	m := &dto.Metric{Gauge: &dto.Gauge{Value: ptr.To(v)}}
	for i := 0; i+1 < len(labels); i += 2 {
		m.Label = append(m.Label, &dto.LabelPair{Name: ptr.To(labels[i]), Value: ptr.To(labels[i+1])})
	}
	return m
}

func TestReasonKind(t *testing.T) {
	for in, tc := range map[string]struct {
		busy Busy
		want string
	}{
		"etcd keeps changing": {Busy{Kind: EtcdChanging}, "etcd keeps changing"},
		"workqueue_depth{controller=workload,name=workload} = 3": {gaugeBusy("workqueue_depth", gauge(3, "controller", "workload", "name", "workload")), "workqueue_depth{workload}"},
		"workqueue_depth{name=job} = 1":                          {gaugeBusy("workqueue_depth", gauge(1, "name", "job")), "workqueue_depth{job}"},
		"Kueue has 4 workloads to try in ClusterQueue a":         {Busy{Kind: KueueTrying, Object: "a", Detail: "4"}, "Kueue has workloads to try"},
		"pod ns/p-1 waits for kube-scheduler":                    {Busy{Kind: PodWaits, Object: "ns/p-1", Detail: "waits for kube-scheduler"}, "pod waits for kube-scheduler"},
		"job ns/j: kube-controller-manager has not created its pods": {Busy{Kind: JobWaits, Object: "ns/j", Detail: "kube-controller-manager has not created its pods"},
			"job kube-controller-manager has not created its pods"},
		"3 evicted raw Workloads still hold quota":                            {EvictionsPending(3), "evicted raw Workloads still hold quota"},
		"Kueue holds 2 quota reservations in ClusterQueue a, the API shows 1": {Reservations("a", 2, 1), "Kueue's quota reservations not yet in the API"},
		"informers have not delivered every write: pods":                      {Busy{Kind: InformersBehind, Object: "pods"}, "informers have not delivered every write: pods"},
		"completing evictions: completing the eviction of Workload a/b: x": {EvictionsFailed(errors.New("completing the eviction of Workload a/b: x")),
			"completing evictions"},
	} {
		if got := tc.busy.String(); got != in {
			t.Errorf("String() = %q, want %q", got, in)
		}
		if got := tc.busy.reasonKind(); got != tc.want {
			t.Errorf("reasonKind(%q) = %q, want %q", in, got, tc.want)
		}
	}
}
