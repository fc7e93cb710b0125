package kube

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/ptr"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// DefaultDuration is the run time of a workload that never ran, when no
// workload of the import finished to take a median from.
const DefaultDuration = time.Hour

// window is the stretch of time the import replays.
type window struct {
	// Origin is simulated time 0: the earliest arrival replayed.
	Origin time.Time
	// Now is the import's instant: workloads not finished by then are still
	// running.
	Now time.Time
}

// streamKey is what makes workloads one stream.
type streamKey struct {
	namespace, queue string
	kind             scenarios.WorkloadKind
	priorityClass    string
	replicas         int32
	requests         string
	// template is the owner's manifest's file; replicas and requests are
	// then the manifest's.
	template string
	running  bool // admitted and not finished: no duration
	// With remaining times (a forecast), a pending workload's stream draws
	// its run time from its alike workloads' (pending), and a running
	// workload is a stream of its own (one: its name), drawing what it
	// has left.
	pending bool
	one     string
}

// arrival is one replayed workload.
type arrival struct {
	at, duration time.Duration
	name         string
	// draw, when set, are the run times the workload's stream draws from
	// instead of duration (a forecast's running and pending workloads).
	draw []time.Duration
	// A forecast's running workload: left are the remaining times drawn
	// from, inWindow the part of its run the replay runs before Now; since
	// is when it was admitted (running) or created (pending).
	left     []time.Duration
	inWindow time.Duration
	since    time.Time
}

// streamsResult is what streamsOf makes of the records.
type streamsResult struct {
	streams []scenarios.Stream
	// neverRan counts the workloads given a run time of their alike
	// workloads, noHistory the running ones given the fallback remaining
	// time, leftOut the finished ones a forecast from the present leaves
	// out.
	neverRan, noHistory, leftOut int
	// present is where Now falls in simulated time.
	present time.Duration
}

// streamsOf groups the records (already filtered to the window) into
// streams, sorted, with stable names, arrivals in arrival order.
//
// With rem.on (a forecast), a workload running at the window's Now runs
// on for a remaining time drawn with the replay's seed from what alike
// runs had left (remainingDraws), and a pending one for a run time drawn
// from its alike finished runs: the forecast spreads over them. Without
// rem.history the replay starts at the present (atPresent).
func streamsOf(recs []record, w window, rem remainingOptions) streamsResult {
	groups := map[streamKey][]arrival{}
	shapes := map[streamKey]record{}
	var pending []streamKey
	var pendingRecs []record
	type runningAt struct {
		key   streamKey
		index int // in groups[key]
		// elapsed is how long it has run at w.Now; inWindow the part of
		// that after w.Origin, which the replay runs before Now.
		elapsed, inWindow time.Duration
	}
	var running []runningAt
	finished := map[streamKey][]time.Duration{}
	var allFinished []time.Duration
	for _, r := range recs {
		k := keyOf(r)
		at := nonNegative(r.Created.Sub(w.Origin))
		switch {
		case r.Admitted != nil && r.Finished != nil:
			d := runTime(r, w)
			finished[k] = append(finished[k], d)
			allFinished = append(allFinished, d)
			groups[k] = append(groups[k], arrival{at: at, duration: d, name: r.Name})
		case r.Admitted != nil:
			from := *r.Admitted
			if from.Before(w.Origin) {
				from = w.Origin
			}
			if rem.on {
				k.one = r.Name
			}
			running = append(running, runningAt{key: k, index: len(groups[k]),
				elapsed: nonNegative(w.Now.Sub(*r.Admitted)), inWindow: nonNegative(w.Now.Sub(from))})
			groups[k] = append(groups[k], arrival{at: at, name: r.Name, since: *r.Admitted})
		default:
			pending = append(pending, k)
			pendingRecs = append(pendingRecs, r)
		}
		shapes[k] = r
	}
	for i, k := range pending {
		runs := finished[k]
		if len(runs) == 0 {
			runs = allFinished
		}
		r := pendingRecs[i]
		a := arrival{at: nonNegative(r.Created.Sub(w.Origin)), duration: median(runs), name: r.Name, since: r.Created}
		if a.duration == 0 {
			a.duration = DefaultDuration
		}
		if rem.on {
			k.pending = true
			a.draw = []time.Duration{a.duration}
			if len(runs) > 0 {
				a.draw = spread(runs)
			}
			shapes[k] = r
		}
		groups[k] = append(groups[k], a)
	}
	noHistory := 0
	if rem.on {
		for _, ra := range running {
			done := ra.key
			done.running, done.one = false, ""
			left := remainingDraws(finished[done], ra.elapsed)
			if len(left) == 0 {
				left = remainingDraws(allFinished, ra.elapsed)
			}
			if len(left) == 0 {
				left = []time.Duration{rem.fallbackOrDefault()}
				noHistory++
			}
			a := &groups[ra.key][ra.index]
			a.left, a.inWindow = left, ra.inWindow
		}
	}
	res := streamsResult{neverRan: len(pending), noHistory: noHistory, present: nonNegative(w.Now.Sub(w.Origin))}
	if rem.on && !rem.history {
		res.present, res.leftOut = atPresent(groups)
	}
	for k, arr := range groups {
		for i := range arr {
			a := &arr[i]
			for _, l := range a.left {
				ran := a.inWindow // before Now, in the replay
				if rem.on && !rem.history {
					ran = res.present - a.at
				}
				a.draw = append(a.draw, ran+l)
			}
		}
		groups[k] = arr
	}
	keys := make([]streamKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].less(keys[j]) })
	names := map[string]int{}
	streams := make([]scenarios.Stream, 0, len(keys))
	for _, k := range keys {
		arr := groups[k]
		if len(arr) == 0 {
			continue
		}
		sort.SliceStable(arr, func(i, j int) bool {
			if arr[i].at != arr[j].at {
				return arr[i].at < arr[j].at
			}
			return arr[i].name < arr[j].name
		})
		r := shapes[k]
		base := streamBase(k)
		names[base]++
		st := scenarios.Stream{
			Name:          fmt.Sprintf("%s-%d", base, names[base]),
			Team:          k.namespace,
			Queue:         k.queue,
			PriorityClass: k.priorityClass,
		}
		switch {
		case k.template != "":
			// The template's object sets the kind, the pods and their
			// requests.
			st.Template = &scenarios.Template{File: k.template}
		default:
			st.Kind, st.Requests = k.kind, r.Requests.DeepCopy()
			if k.replicas != 1 {
				st.Replicas = ptr.To(k.replicas)
			}
		}
		for _, a := range arr {
			st.Arrival.At = append(st.Arrival.At, metav1.Duration{Duration: a.at})
			if !k.running && a.draw == nil {
				st.Durations = append(st.Durations, metav1.Duration{Duration: a.duration})
			}
		}
		if d := arr[0].draw; d != nil {
			st.Duration = drawFrom(d)
		}
		streams = append(streams, st)
	}
	res.streams = streams
	return res
}

func keyOf(r record) streamKey {
	running := r.Admitted != nil && r.Finished == nil
	if t := r.Template; t != nil {
		return streamKey{namespace: r.Namespace, queue: r.Queue, kind: t.Kind, priorityClass: r.PriorityClass,
			template: t.File, running: running}
	}
	return streamKey{
		namespace: r.Namespace, queue: r.Queue, kind: r.Kind, priorityClass: r.PriorityClass,
		replicas: r.Replicas, requests: requestsString(r.Requests), running: running,
	}
}

func (a streamKey) less(b streamKey) bool {
	for _, c := range [][2]string{
		{a.namespace, b.namespace}, {a.queue, b.queue}, {string(a.kind), string(b.kind)},
		{a.priorityClass, b.priorityClass},
	} {
		if c[0] != c[1] {
			return c[0] < c[1]
		}
	}
	if a.replicas != b.replicas {
		return a.replicas < b.replicas
	}
	if a.requests != b.requests {
		return a.requests < b.requests
	}
	if a.template != b.template {
		return a.template < b.template
	}
	if a.running != b.running {
		return b.running
	}
	if a.pending != b.pending {
		return b.pending
	}
	return a.one < b.one
}

// foldOwners makes the Workloads of one InferenceService one record: Kueue
// queues each predictor pod as a Workload of its own, and the
// InferenceService's manifest runs them all. The record arrives with the
// first, was admitted with the first admitted, and runs while any runs (to
// the last end when all ended). notes say which were folded.
func foldOwners(recs []record) ([]record, []string) {
	out := make([]record, 0, len(recs))
	at := map[ownerKey]int{}
	running := map[ownerKey]bool{}
	count := map[ownerKey]int{}
	var order []ownerKey
	for _, r := range recs {
		if r.Template == nil || r.Template.Kind != scenarios.KindInferenceService || r.owner == nil {
			out = append(out, r)
			continue
		}
		key := r.owner.key()
		count[key]++
		running[key] = running[key] || (r.Admitted != nil && r.Finished == nil)
		i, seen := at[key]
		if !seen {
			at[key] = len(out)
			order = append(order, key)
			out = append(out, r)
			continue
		}
		f := &out[i]
		if r.Created.Before(f.Created) {
			f.Created = r.Created
		}
		if r.Admitted != nil && (f.Admitted == nil || r.Admitted.Before(*f.Admitted)) {
			f.Admitted = r.Admitted
		}
		if r.Finished != nil && (f.Finished == nil || r.Finished.After(*f.Finished)) {
			f.Finished = r.Finished
		}
	}
	var notes []string
	for _, key := range order {
		if running[key] {
			out[at[key]].Finished = nil
		}
		if count[key] > 1 {
			notes = append(notes, fmt.Sprintf("the %d Workloads of InferenceService %s/%s (one per predictor pod) replay as one InferenceService",
				count[key], key.namespace, key.name))
		}
	}
	return out, notes
}

// runTime is how long a finished workload ran: from its last admission (or
// the window's start, when it was admitted before) to its end, in whole
// seconds, at least one.
func runTime(r record, w window) time.Duration {
	start := *r.Admitted
	// Admitted before the window: the run time counts from the window's
	// start. Unless it also finished before the first creation: its
	// conditions then run on another clock than creation does (a cluster
	// kueue-sim replayed stamps Kueue's conditions in simulated time, from
	// 2026-01-01), and only their difference is a run time.
	if start.Before(w.Origin) && !r.Finished.Before(w.Origin) {
		start = w.Origin
	}
	d := r.Finished.Sub(start).Round(time.Second)
	if d < time.Second {
		d = time.Second
	}
	return d
}

func nonNegative(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	return d.Truncate(time.Second)
}

// median of ds, rounded to the second; 0 when ds is empty.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return m.Round(time.Second)
}

// kindNames shorten kinds in stream names.
var kindNames = map[scenarios.WorkloadKind]string{
	scenarios.KindJob: "job", scenarios.KindPyTorchJob: "pytorch", scenarios.KindRayJob: "rayjob",
	scenarios.KindRayCluster: "raycluster", scenarios.KindNotebook: "notebook",
	scenarios.KindInferenceService: "isvc", scenarios.KindWorkload: "wl",
}

// streamBase is namespace-queue-kind (the queue left out when it repeats
// the namespace), shortened so that an index still fits a stream name.
func streamBase(k streamKey) string {
	parts := []string{k.namespace}
	if k.queue != k.namespace {
		parts = append(parts, k.queue)
	}
	parts = append(parts, kindNames[k.kind])
	switch {
	case k.running:
		parts = append(parts, "running")
	case k.pending:
		parts = append(parts, "pending")
	}
	base := sanitize(strings.Join(parts, "-"))
	const room = scenarios.MaxStreamName - 6 // "-" and up to 5 digits
	if len(base) > room {
		base = strings.TrimRight(base[:room], "-")
	}
	return base
}

// sanitize makes s a DNS label: lowercase letters, digits and '-'.
func sanitize(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteRune(c)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	if out == "" {
		out = "x"
	}
	if len(out) > validation.DNS1123LabelMaxLength {
		out = strings.TrimRight(out[:validation.DNS1123LabelMaxLength], "-")
	}
	return out
}

// requestsString is a canonical form of a resource list: name=quantity,
// sorted.
func requestsString(l corev1.ResourceList) string {
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, string(n))
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		q := l[corev1.ResourceName(n)]
		parts[i] = n + "=" + q.String()
	}
	return strings.Join(parts, ",")
}
