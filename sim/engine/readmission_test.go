package engine

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// readmissionRunner is a Runner with only what endStep reads: the observer,
// the timeline and the share observer (off).
func readmissionRunner() (*Runner, *VirtualClock) {
	s := &scenarios.Scenario{}
	c := &VirtualClock{}
	return &Runner{s: s, clock: c, obs: newObserver(c, nil, s), shares: newShareObserver(c, nil, s)}, c
}

// workloadVersion is the arrival's Workload with the given conditions true
// and, when admitted, an admission on flavor.
func workloadVersion(a Arrival, flavor string, conds ...string) *kueue.Workload {
	wl := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{
		Name: a.Name, Namespace: a.Team.Namespace, Labels: map[string]string{WorkloadLabel: a.Name},
	}}
	for _, c := range conds {
		reason := c
		if c == kueue.WorkloadEvicted {
			reason = kueue.WorkloadEvictedByPreemption
		}
		apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{Type: c, Status: metav1.ConditionTrue, Reason: reason})
		if c == kueue.WorkloadAdmitted {
			wl.Status.Admission = &kueue.Admission{ClusterQueue: "cq", PodSetAssignments: []kueue.PodSetAssignment{{
				Name: kueue.DefaultPodSetName, Flavors: map[corev1.ResourceName]kueue.ResourceFlavorReference{corev1.ResourceCPU: kueue.ResourceFlavorReference(flavor)},
			}}}
		}
	}
	return wl
}

// finishes are the timeline's run ends that are not stale, as times.
func finishes(r *Runner) []time.Duration {
	var out []time.Duration
	for _, it := range r.queue.items {
		if it.act == actFinish && it.generation == it.st.generation {
			out = append(out, it.at)
		}
	}
	return out
}

func typesOf(evs []record.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

// A raw Workload that Kueue preempts and admits again on another flavor
// within one step runs again: the step records Running after the second
// admission, the first run's end is stale, and the new run ends a full
// duration after the re-admission.
func TestReadmissionWithinAStepStartsANewRun(t *testing.T) {
	r, clock := readmissionRunner()
	a := kindArrivals(scenarios.KindWorkload)["bare"]
	a.Duration = time.Hour
	st := r.obs.track(a, a.Team.Namespace+"/"+a.Name, "cq")

	admitted := workloadVersion(a, "on-demand", kueue.WorkloadQuotaReserved, kueue.WorkloadAdmitted)
	r.obs.onWorkload(nil, admitted)
	if err := r.endStep(nil); err != nil {
		t.Fatal(err)
	}
	if got, want := finishes(r), []time.Duration{time.Hour}; !equalDurations(got, want) {
		t.Fatalf("after the first admission, run ends at %v, want %v", got, want)
	}

	clock.Set(10 * time.Minute)
	preempted := workloadVersion(a, "on-demand", kueue.WorkloadQuotaReserved, kueue.WorkloadEvicted, kueue.WorkloadPreempted)
	released := workloadVersion(a, "", kueue.WorkloadEvicted, kueue.WorkloadPreempted)
	readmitted := workloadVersion(a, "spot", kueue.WorkloadQuotaReserved, kueue.WorkloadAdmitted)
	r.obs.onWorkload(admitted, preempted)
	r.obs.onWorkload(preempted, released)
	r.obs.onWorkload(released, readmitted)
	if err := r.endStep(nil); err != nil {
		t.Fatal(err)
	}
	var step []record.Event
	for _, e := range r.all {
		if e.T.D() == 10*time.Minute {
			step = append(step, e)
		}
	}
	if got, want := typesOf(step), []string{record.TypePreempted, record.TypeAdmitted, record.TypeRunning}; !equalStrings(got, want) {
		t.Errorf("the step records %v, want %v", got, want)
	}
	if got, want := finishes(r), []time.Duration{10*time.Minute + time.Hour}; !equalDurations(got, want) {
		t.Errorf("after the re-admission, live run ends at %v, want %v", got, want)
	}
	if !st.running || st.generation != 1 {
		t.Errorf("state running=%v generation=%d, want running in generation 1", st.running, st.generation)
	}
}

// A pod-based workload evicted and admitted again within one step, whose
// new pods are Running by the step's end, runs again too.
func TestReadmissionWithNewPodsWithinAStepStartsANewRun(t *testing.T) {
	r, clock := readmissionRunner()
	a := kindArrivals(scenarios.KindJob)["bare"]
	a.Duration = time.Hour
	st := r.obs.track(a, a.Team.Namespace+"/"+a.Name, "cq")
	pod := func(name string, phase corev1.PodPhase) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: a.Team.Namespace, Labels: map[string]string{WorkloadLabel: a.Name}},
			Status: corev1.PodStatus{Phase: phase}}
	}
	admitted := workloadVersion(a, "on-demand", kueue.WorkloadQuotaReserved, kueue.WorkloadAdmitted)
	r.obs.onWorkload(nil, admitted)
	r.obs.onPod(nil, pod("p1", corev1.PodRunning))
	if err := r.endStep(nil); err != nil {
		t.Fatal(err)
	}

	clock.Set(10 * time.Minute)
	evicted := workloadVersion(a, "", kueue.WorkloadEvicted, kueue.WorkloadPreempted)
	readmitted := workloadVersion(a, "spot", kueue.WorkloadQuotaReserved, kueue.WorkloadAdmitted)
	r.obs.onWorkload(admitted, evicted)
	r.obs.onPodDeleted(pod("p1", corev1.PodRunning))
	r.obs.onWorkload(evicted, readmitted)
	r.obs.onPod(nil, pod("p2", corev1.PodRunning))
	if err := r.endStep(nil); err != nil {
		t.Fatal(err)
	}
	if got, want := finishes(r), []time.Duration{10*time.Minute + time.Hour}; !equalDurations(got, want) {
		t.Errorf("after the re-admission, live run ends at %v, want %v", got, want)
	}
	if st.generation != 1 {
		t.Errorf("generation %d, want 1", st.generation)
	}
}

// A workload that keeps running under one admission keeps its run.
func TestRunUnderOneAdmissionKeepsItsEnd(t *testing.T) {
	r, clock := readmissionRunner()
	a := kindArrivals(scenarios.KindWorkload)["bare"]
	a.Duration = time.Hour
	r.obs.track(a, a.Team.Namespace+"/"+a.Name, "cq")
	admitted := workloadVersion(a, "on-demand", kueue.WorkloadQuotaReserved, kueue.WorkloadAdmitted)
	r.obs.onWorkload(nil, admitted)
	if err := r.endStep(nil); err != nil {
		t.Fatal(err)
	}
	clock.Set(10 * time.Minute)
	r.obs.onWorkload(admitted, admitted.DeepCopy())
	if err := r.endStep(nil); err != nil {
		t.Fatal(err)
	}
	if got, want := finishes(r), []time.Duration{time.Hour}; !equalDurations(got, want) {
		t.Errorf("run ends at %v, want %v", got, want)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
