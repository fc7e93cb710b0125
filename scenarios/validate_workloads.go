package scenarios

import (
	"fmt"
	"math"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func (v *validator) streamList(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	var total int64
	for i := range v.s.Workloads {
		w := &v.s.Workloads[i]
		wp := p.Index(i)
		errs = append(errs, v.streams.declare(wp.Child("name"), w.Name, streamName)...)
		if _, dup := v.streamCount[w.Name]; !dup {
			v.streamCount[w.Name] = countOf(w)
		}
		errs = append(errs, v.teams.ref(wp.Child("team"), w.Team)...)
		if w.Kind == "" {
			if w.Template == nil { // a template's kind is the object's, or Load said why not
				errs = append(errs, field.Required(wp.Child("kind"), "one of "+strings.Join(kindNames(), ", ")+"; or give a template"))
			}
		} else if !kindKnown(w.Kind) {
			errs = append(errs, notSupported(wp.Child("kind"), string(w.Kind), kindNames()))
		}
		if c := countOf(w); c < 1 || c > MaxStreamCount {
			errs = append(errs, field.Invalid(wp.Child("count"), c, fmt.Sprintf("must be between 1 and %d workloads per stream", MaxStreamCount)))
		} else {
			total += int64(c)
		}
		errs = append(errs, arrival(wp.Child("arrival"), w)...)
		if w.Duration != nil {
			errs = append(errs, distribution(wp.Child("duration"), w.Duration)...)
		}
		if w.RunUntil != nil {
			errs = append(errs, positiveDuration(wp.Child("runUntil"), w.RunUntil)...)
		}
		if w.Template != nil {
			errs = append(errs, v.streamTemplate(wp, w)...)
		} else {
			errs = append(errs, replicas(wp.Child("replicas"), w)...)
			errs = append(errs, requests(wp.Child("requests"), w)...)
		}
		errs = append(errs, v.streamQueue(wp, w)...)
		if w.PriorityClass != "" {
			errs = append(errs, v.priorities.ref(wp.Child("priorityClass"), w.PriorityClass)...)
		}
	}
	if total > MaxWorkloads {
		errs = append(errs, invalid(p, fmt.Sprintf("the streams' counts add up to %d workloads, over the limit of %d: lower some counts", total, MaxWorkloads)))
	}
	return errs
}

func replicas(p *field.Path, w *Stream) field.ErrorList {
	r := replicasOf(w)
	switch {
	case r < 1 || r > MaxReplicas:
		return field.ErrorList{field.Invalid(p, r, fmt.Sprintf("must be between 1 and %d pods per workload", MaxReplicas))}
	case w.Kind == KindNotebook && r != 1:
		return field.ErrorList{field.Invalid(p, r, "a Notebook runs one pod: remove replicas (use count for more notebooks)")}
	}
	return nil
}

func requests(p *field.Path, w *Stream) field.ErrorList {
	if len(w.Requests) == 0 {
		return field.ErrorList{field.Required(p, "give each pod's requests, e.g. {cpu: \"4\", memory: 32Gi, nvidia.com/gpu: \"1\"}")}
	}
	var errs field.ErrorList
	for _, r := range sortedResources(w.Requests) {
		q := w.Requests[r]
		rp := p.Key(string(r))
		errs = append(errs, resourceName(rp, r, false)...)
		if q.Sign() < 0 {
			errs = append(errs, field.Invalid(rp, q.String(), "must not be negative"))
			continue
		}
		errs = append(errs, extendedWhole(rp, r, q)...)
	}
	return errs
}

// streamQueue checks how a stream's workloads find their LocalQueue: a
// queue label or a hardware profile, or neither (the webhook refuses them
// in Kueue-managed namespaces).
func (v *validator) streamQueue(wp *field.Path, w *Stream) field.ErrorList {
	var errs field.ErrorList
	if w.Queue != "" && w.HardwareProfile != "" {
		errs = append(errs, field.Forbidden(wp.Child("hardwareProfile"), "give queue or hardwareProfile, not both: the profile sets the queue"))
	}
	if team := v.teamByName[w.Team]; w.Queue != "" && team != nil {
		if qe := v.queuesOf(team.Namespace).ref(wp.Child("queue"), w.Queue); len(qe) > 0 {
			qe[0].Detail = fmt.Sprintf("team %s has no such LocalQueue: %s", w.Team, qe[0].Detail)
			errs = append(errs, qe...)
		}
	}
	if w.HardwareProfile != "" {
		errs = append(errs, v.profiles.ref(wp.Child("hardwareProfile"), w.HardwareProfile)...)
	}
	return errs
}

// maxTimeProblems bounds the times of one arrival.at reported one by one.
const maxTimeProblems = 5

func arrival(p *field.Path, w *Stream) field.ErrorList {
	a := w.Arrival
	var errs field.ErrorList
	var set []string
	if len(a.At) > 0 {
		set = append(set, "at")
		if c := countOf(w); int64(len(a.At)) != int64(c) {
			errs = append(errs, field.Invalid(p.Child("at"), len(a.At), fmt.Sprintf("lists %d times but count is %d: remove count or make them agree", len(a.At), c)))
		}
		bad := 0
		for i := range a.At {
			if e := simTime(p.Child("at").Index(i), &a.At[i]); len(e) > 0 {
				if bad++; bad <= maxTimeProblems {
					errs = append(errs, e...)
				}
			}
		}
		if bad > maxTimeProblems {
			errs = append(errs, invalid(p.Child("at"), fmt.Sprintf("%d more times are out of range: every time must be between 0 and one year (8760h)", bad-maxTimeProblems)))
		}
	}
	if a.Every != nil {
		set = append(set, "every")
		errs = append(errs, positiveDuration(p.Child("every"), a.Every)...)
	}
	if a.Poisson != nil {
		set = append(set, "poisson")
		errs = append(errs, positiveDuration(p.Child("poisson"), a.Poisson)...)
	}
	if len(set) > 1 {
		errs = append(errs, invalid(p, fmt.Sprintf("%s set: keep one (at: a list of times, every: a fixed interval, poisson: a mean interval)", bothSet(set))))
	}
	if a.Start != nil {
		if a.Every == nil && a.Poisson == nil {
			errs = append(errs, field.Forbidden(p.Child("start"), "start offsets every and poisson arrivals only: add it to the times in at, or remove it"))
		}
		errs = append(errs, simTime(p.Child("start"), a.Start)...)
	}
	return errs
}

func distribution(p *field.Path, d *Distribution) field.ErrorList {
	var errs field.ErrorList
	var set []string
	if d.Fixed != nil {
		set = append(set, "fixed")
		errs = append(errs, positiveDuration(p.Child("fixed"), d.Fixed)...)
	}
	if d.Exponential != nil {
		set = append(set, "exponential")
		errs = append(errs, positiveDuration(p.Child("exponential"), d.Exponential)...)
	}
	if ln := d.LogNormal; ln != nil {
		set = append(set, "lognormal")
		errs = append(errs, positiveDuration(p.Child("lognormal", "median"), &ln.Median)...)
		switch s := ln.Sigma; {
		case s == 0:
			errs = append(errs, field.Required(p.Child("lognormal", "sigma"), "give the spread, in (0, 5]: 0.5 is moderate, 1.5 heavy-tailed"))
		case !(s > 0 && s <= 5):
			errs = append(errs, field.Invalid(p.Child("lognormal", "sigma"), s, "must be in (0, 5]: 0.5 is moderate, 1.5 heavy-tailed"))
		}
	}
	if d.Empirical != nil {
		set = append(set, "empirical")
		if len(d.Empirical) == 0 {
			errs = append(errs, field.Required(p.Child("empirical"), "give the run times to draw from, e.g. [20m, 35m, 2h]"))
		}
		for i := range d.Empirical {
			errs = append(errs, positiveDuration(p.Child("empirical").Index(i), &d.Empirical[i])...)
		}
	}
	switch len(set) {
	case 0:
		errs = append(errs, field.Required(p, "give one of fixed: 30m, exponential: 30m (the mean), lognormal: {median: 30m, sigma: 0.5} or empirical: [20m, 35m, 2h]; or remove duration to run until runUntil or the end"))
	case 1:
	default:
		errs = append(errs, invalid(p, fmt.Sprintf("%s set: keep one", bothSet(set))))
	}
	return errs
}

// bothSet names fields set together: "every and poisson are both".
func bothSet(set []string) string {
	if len(set) == 2 {
		return set[0] + " and " + set[1] + " are both"
	}
	return strings.Join(set[:len(set)-1], ", ") + " and " + set[len(set)-1] + " are all"
}

// countOf is a stream's count, defaulted as Default does: Validate may see
// a scenario Default has not.
func countOf(w *Stream) int32 {
	switch {
	case w.Count != nil:
		return *w.Count
	case len(w.Arrival.At) > 0:
		return int32(min(len(w.Arrival.At), math.MaxInt32))
	}
	return 1
}

func replicasOf(w *Stream) int32 {
	if w.Replicas != nil {
		return *w.Replicas
	}
	return 1
}
