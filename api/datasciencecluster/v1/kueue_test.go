package v1

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestKueueComponentState(t *testing.T) {
	cases := []struct {
		in      ManagementState
		want    ManagementState
		enabled bool
	}{
		{"", Removed, false},
		{Removed, Removed, false},
		{Managed, Managed, true},
		{Unmanaged, Unmanaged, true},
	}
	for _, tc := range cases {
		k := KueueComponent{ManagementState: tc.in}
		if got := k.State(); got != tc.want {
			t.Errorf("State() of %q = %q, want %q", tc.in, got, tc.want)
		}
		if got := k.Enabled(); got != tc.enabled {
			t.Errorf("Enabled() of %q = %v, want %v", tc.in, got, tc.enabled)
		}
	}
	if got := (KueueComponent{}).ClusterQueueName(); got != "default" {
		t.Errorf("ClusterQueueName() unset = %q, want default", got)
	}
	if got := (KueueComponent{DefaultLocalQueueName: "team"}).LocalQueueName(); got != "team" {
		t.Errorf("LocalQueueName() = %q, want team", got)
	}
}

func TestActive(t *testing.T) {
	at := func(name string, sec int, deleting bool) DataScienceCluster {
		d := DataScienceCluster{ObjectMeta: metav1.ObjectMeta{
			Name: name, CreationTimestamp: metav1.NewTime(time.Unix(int64(sec), 0)),
		}}
		if deleting {
			d.DeletionTimestamp = &metav1.Time{}
		}
		return d
	}
	names := func(active *DataScienceCluster, others []*DataScienceCluster) []string {
		var out []string
		if active != nil {
			out = append(out, active.Name)
		}
		for _, o := range others {
			out = append(out, o.Name)
		}
		return out
	}
	cases := []struct {
		name  string
		items []DataScienceCluster
		want  []string // active first
	}{
		{"none", nil, nil},
		{"oldest wins", []DataScienceCluster{at("b", 2, false), at("a", 3, false), at("c", 1, false)}, []string{"c", "b", "a"}},
		{"same second: by name", []DataScienceCluster{at("b", 1, false), at("a", 1, false)}, []string{"a", "b"}},
		{"one being deleted is skipped", []DataScienceCluster{at("old", 1, true), at("new", 2, false)}, []string{"new"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, names(Active(tc.items))); diff != "" {
				t.Errorf("active, then others (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIsKueueManaged(t *testing.T) {
	cases := map[string]struct {
		labels map[string]string
		want   bool
	}{
		"current":       {map[string]string{KueueManagedLabel: "true"}, true},
		"legacy":        {map[string]string{LegacyKueueManagedLabel: "true"}, true},
		"false":         {map[string]string{KueueManagedLabel: "false"}, false},
		"one true wins": {map[string]string{KueueManagedLabel: "false", LegacyKueueManagedLabel: "true"}, true},
		"none":          {nil, false},
	}
	for name, tc := range cases {
		if got := IsKueueManaged(tc.labels); got != tc.want {
			t.Errorf("%s: IsKueueManaged(%v) = %v, want %v", name, tc.labels, got, tc.want)
		}
	}
}
