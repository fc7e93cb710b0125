package scenarios

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// workloadChecks are a workload expectation's checks, in the order of the
// type.
const workloadChecks = "admittedOn, clusterQueue, admitted, admittedBy, admittedAt, pendingAt, admissions, preempted, evicted or finished"

func (v *validator) workloadExpectation(p *field.Path, w *WorkloadExpectation) field.ErrorList {
	errs := v.workloadRef(p, w)
	st := v.stream(w.Stream)
	checked := 0
	var reading []string // the checks that expect an admission
	if w.AdmittedOn != nil {
		checked++
		reading = append(reading, "admittedOn")
		errs = append(errs, v.admittedOn(p.Child("admittedOn"), w.AdmittedOn, st)...)
	}
	if w.ClusterQueue != "" {
		checked++
		reading = append(reading, "clusterQueue")
		errs = append(errs, v.cqs.ref(p.Child("clusterQueue"), w.ClusterQueue)...)
	}
	if w.Admitted != nil {
		checked++
	}
	for _, t := range []struct {
		name string
		d    *metav1.Duration
	}{{"admittedBy", w.AdmittedBy}, {"admittedAt", w.AdmittedAt}, {"pendingAt", w.PendingAt}} {
		if t.d == nil {
			continue
		}
		checked++
		if t.name != "pendingAt" {
			reading = append(reading, t.name)
		}
		errs = append(errs, v.runTime(p.Child(t.name), t.d)...)
	}
	if w.Admissions != nil {
		checked++
		if *w.Admissions < 0 {
			errs = append(errs, field.Invalid(p.Child("admissions"), *w.Admissions, "must not be negative: 0 says it was never admitted"))
		}
	}
	if w.Preempted != nil {
		checked++
		errs = append(errs, reasonCount(p.Child("preempted"), w.Preempted, "preemptions", PreemptionReasons, EvictionReasons, "evicted")...)
	}
	if w.Evicted != nil {
		checked++
		errs = append(errs, reasonCount(p.Child("evicted"), w.Evicted, "evictions", EvictionReasons, PreemptionReasons, "preempted")...)
	}
	if w.Finished != nil {
		checked++
	}
	if checked == 0 {
		what := "the workload"
		if w.Stream != "" {
			what = "workload " + w.Name()
		}
		return append(errs, field.Required(p, fmt.Sprintf("%s is named but nothing is checked: give at least one of %s", what, workloadChecks)))
	}
	errs = append(errs, admissionPick(p, w)...)
	return append(errs, neverAdmitted(p, w, reading)...)
}

// workloadRef checks the stream and the index that name the workload.
func (v *validator) workloadRef(p *field.Path, w *WorkloadExpectation) field.ErrorList {
	errs := v.streams.ref(p.Child("stream"), w.Stream)
	total, known := v.streamCount[w.Stream]
	ip := p.Child("index")
	switch {
	case w.Index != nil && *w.Index < 0:
		errs = append(errs, field.Invalid(ip, *w.Index, "must not be negative: 0 is the stream's first workload"))
	case len(errs) > 0 || !known || total < 1:
	case w.Index == nil && total > 1:
		errs = append(errs, field.Required(ip, fmt.Sprintf("stream %s has %d workloads, %s to %s: give the index of one, 0 to %d",
			w.Stream, total, ArrivalName(w.Stream, 0), ArrivalName(w.Stream, total-1), total-1)))
	case w.Index != nil && *w.Index >= total && total == 1:
		errs = append(errs, field.Invalid(ip, *w.Index, fmt.Sprintf("stream %s has one workload, %s: leave index out", w.Stream, ArrivalName(w.Stream, 0))))
	case w.Index != nil && *w.Index >= total:
		errs = append(errs, field.Invalid(ip, *w.Index, fmt.Sprintf("stream %s has %d workloads: the index is 0 to %d", w.Stream, total, total-1)))
	}
	return errs
}

// stream is the first stream of this name, or nil.
func (v *validator) stream(name string) *Stream {
	for i := range v.s.Workloads {
		if v.s.Workloads[i].Name == name {
			return &v.s.Workloads[i]
		}
	}
	return nil
}

// admittedOn checks that each resource is one the stream requests (or
// pods, which Kueue counts when a ClusterQueue rations it) and each flavor
// is declared.
func (v *validator) admittedOn(p *field.Path, on map[corev1.ResourceName]string, st *Stream) field.ErrorList {
	if len(on) == 0 {
		return field.ErrorList{field.Required(p, "name the flavor of at least one resource, e.g. {cpu: on-demand}")}
	}
	var errs field.ErrorList
	resources := make([]string, 0, len(on))
	for r := range on {
		resources = append(resources, string(r))
	}
	sort.Strings(resources)
	for _, r := range resources {
		rp := p.Key(r)
		name := corev1.ResourceName(r)
		if st != nil && st.requestsKnown() && !st.requests()[r] && name != corev1.ResourcePods {
			errs = append(errs, invalid(rp, fmt.Sprintf("stream %s does not request %s: Kueue assigns flavors to the resources a workload requests (%s)",
				st.Name, r, strings.Join(sortedStrings(st.requests()), ", "))))
		}
		errs = append(errs, v.flavors.ref(rp, on[name])...)
	}
	return errs
}

// requestsKnown tells whether requests are the stream's: a template that
// did not load has none to tell.
func (s *Stream) requestsKnown() bool {
	return s.Template == nil || s.Template.Loaded != nil
}

// requests are the stream's requests by name (a template's: those of its
// pods, see LoadedTemplate.resourceNames), or nil.
func (s *Stream) requests() map[string]bool {
	if s == nil {
		return nil
	}
	if s.Template != nil {
		if s.Template.Loaded == nil {
			return nil
		}
		return s.Template.Loaded.resourceNames()
	}
	out := make(map[string]bool, len(s.Requests))
	for r := range s.Requests {
		out[string(r)] = true
	}
	return out
}

// runTime checks a time of the run: within simulated time and not after
// the scenario's end.
func (v *validator) runTime(p *field.Path, d *metav1.Duration) field.ErrorList {
	if errs := simTime(p, d); len(errs) > 0 {
		return errs
	}
	if end := v.s.End; end != nil && d.Duration > end.Duration {
		return field.ErrorList{field.Invalid(p, d.Duration.String(), fmt.Sprintf("is after the run's end (end: %s): nothing is recorded then", end.Duration))}
	}
	return nil
}

// reasonCount checks a reason of Kueue's preemptions or evictions (what:
// one of known; other are the reasons of the other check, otherCheck) and
// a count.
func reasonCount(p *field.Path, rc *ReasonCount, what string, known, other []string, otherCheck string) field.ErrorList {
	var errs field.ErrorList
	switch {
	case rc.Reason == "" || contains(known, rc.Reason):
	case contains(other, rc.Reason):
		errs = append(errs, invalid(p.Child("reason"), fmt.Sprintf("%s is not a reason of Kueue's %s but of its %s: write %s: {reason: %s}",
			rc.Reason, what, otherWhat[what], otherCheck, rc.Reason)))
	case rc.Reason == "Preempted":
		errs = append(errs, invalid(p.Child("reason"), fmt.Sprintf("Kueue's Evicted reason Preempted is recorded as a preemption, with the Preempted condition's reason: write preempted: {} or preempted: {reason: %s}", strings.Join(PreemptionReasons, "|"))))
	default:
		errs = append(errs, notSupported(p.Child("reason"), rc.Reason, known))
	}
	if rc.Count != nil && *rc.Count < 0 {
		errs = append(errs, field.Invalid(p.Child("count"), *rc.Count, "must not be negative: 0 says never"))
	}
	return errs
}

// otherWhat is what the other check counts.
var otherWhat = map[string]string{"preemptions": "evictions", "evictions": "preemptions"}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// admissionPick checks admission: it picks the admission that admittedOn,
// clusterQueue and admittedBy read, and only one way of picking is given.
func admissionPick(p *field.Path, w *WorkloadExpectation) field.ErrorList {
	if w.Admission == nil {
		return nil
	}
	ap := p.Child("admission")
	switch n := *w.Admission; {
	case n < 1:
		return field.ErrorList{field.Invalid(ap, n, "must be at least 1: 1 is the first admission")}
	case w.AdmittedAt != nil:
		return field.ErrorList{invalid(ap, "admission and admittedAt both pick the admission admittedOn and clusterQueue read (the Nth, or the one held then): give one, or split them into two expectations")}
	case w.AdmittedOn == nil && w.ClusterQueue == "" && w.AdmittedBy == nil:
		return field.ErrorList{invalid(ap, "picks the admission admittedOn, clusterQueue and admittedBy read, and none is set: add one, or count admissions with admissions: N")}
	case w.Admissions != nil && n > *w.Admissions:
		return field.ErrorList{field.Invalid(ap, n, fmt.Sprintf("admissions: %d says it has no admission %d", *w.Admissions, n))}
	}
	return nil
}

// neverAdmitted reports checks that expect an admission beside admitted:
// false or admissions: 0, which say there is none.
func neverAdmitted(p *field.Path, w *WorkloadExpectation, reading []string) field.ErrorList {
	var never string
	switch {
	case w.Admitted != nil && !*w.Admitted:
		never = "admitted: false"
	case w.Admissions != nil && *w.Admissions == 0:
		never = "admissions: 0"
	default:
		return nil
	}
	if w.Admitted != nil && *w.Admitted {
		reading = append(reading, "admitted: true")
	}
	if w.Admission != nil {
		reading = append(reading, "admission")
	}
	if pr := w.Preempted; pr != nil && (pr.Count == nil || *pr.Count > 0) {
		reading = append(reading, "preempted")
	}
	if len(reading) == 0 {
		return nil
	}
	return field.ErrorList{invalid(p, fmt.Sprintf("%s says it was never admitted, yet %s need an admission: drop one or the other", never, andList(reading)))}
}

// andList is "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
