package scenarios

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func TestDefault(t *testing.T) {
	// defaulted is what Default adds to every scenario.
	defaulted := func(s Scenario) Scenario {
		if s.Seed == nil {
			s.Seed = ptr.To(DefaultSeed)
		}
		if s.Cluster.OpenShiftAI.ManagementState == "" {
			s.Cluster.OpenShiftAI.ManagementState = "Unmanaged"
		}
		if s.Cluster.OpenShiftAI.OperatorInstalled == nil {
			s.Cluster.OpenShiftAI.OperatorInstalled = ptr.To(true)
		}
		return s
	}
	minute := metav1.Duration{Duration: time.Minute}
	for _, tc := range []struct {
		name string
		in   Scenario
		want Scenario
	}{{
		name: "empty scenario: the file name, seed 1, Kueue Unmanaged, operator installed",
		in:   Scenario{},
		want: Scenario{Name: "file", Seed: ptr.To[int64](1), Cluster: Cluster{OpenShiftAI: OpenShiftAI{
			ManagementState: "Unmanaged", OperatorInstalled: ptr.To(true)}}},
	}, {
		name: "set fields are kept, seed 0 and operator not installed included",
		in: Scenario{Name: "mine", Seed: ptr.To[int64](0), Cluster: Cluster{OpenShiftAI: OpenShiftAI{
			ManagementState: "Removed", OperatorInstalled: ptr.To(false)}}},
		want: Scenario{Name: "mine", Seed: ptr.To[int64](0), Cluster: Cluster{OpenShiftAI: OpenShiftAI{
			ManagementState: "Removed", OperatorInstalled: ptr.To(false)}}},
	}, {
		name: "a team's namespace defaults to its name",
		in:   Scenario{Name: "s", Teams: []Team{{Name: "a"}, {Name: "b", Namespace: "team-b"}}},
		want: defaulted(Scenario{Name: "s", Teams: []Team{{Name: "a", Namespace: "a"}, {Name: "b", Namespace: "team-b"}}}),
	}, {
		name: "a hardware profile's namespace defaults to the first team's",
		in: Scenario{Name: "s", Teams: []Team{{Name: "a", Namespace: "ns-a"}, {Name: "b"}},
			Queues: Queues{HardwareProfiles: []HardwareProfile{{Name: "p"}, {Name: "q", Namespace: "b"}}}},
		want: defaulted(Scenario{Name: "s", Teams: []Team{{Name: "a", Namespace: "ns-a"}, {Name: "b", Namespace: "b"}},
			Queues: Queues{HardwareProfiles: []HardwareProfile{{Name: "p", Namespace: "ns-a"}, {Name: "q", Namespace: "b"}}}}),
	}, {
		name: "without teams a hardware profile keeps no namespace (Validate asks for one)",
		in:   Scenario{Name: "s", Queues: Queues{HardwareProfiles: []HardwareProfile{{Name: "p"}}}},
		want: defaulted(Scenario{Name: "s", Queues: Queues{HardwareProfiles: []HardwareProfile{{Name: "p"}}}}),
	}, {
		name: "a stream's count is the number of arrival times, else 1; replicas 1",
		in: Scenario{Name: "s", Workloads: []Stream{
			{Name: "listed", Arrival: Arrival{At: []metav1.Duration{{}, minute, minute}}},
			{Name: "one"},
			{Name: "set", Count: ptr.To[int32](7), Replicas: ptr.To[int32](4), Arrival: Arrival{At: []metav1.Duration{{}}}},
		}},
		want: defaulted(Scenario{Name: "s", Workloads: []Stream{
			{Name: "listed", Count: ptr.To[int32](3), Replicas: ptr.To[int32](1), Arrival: Arrival{At: []metav1.Duration{{}, minute, minute}}},
			{Name: "one", Count: ptr.To[int32](1), Replicas: ptr.To[int32](1)},
			{Name: "set", Count: ptr.To[int32](7), Replicas: ptr.To[int32](4), Arrival: Arrival{At: []metav1.Duration{{}}}},
		}}),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in
			Default(&got, "file")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Default (-want +got):\n%s", diff)
			}
			Default(&got, "other")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Default twice (-want +got):\n%s", diff)
			}
		})
	}
}
