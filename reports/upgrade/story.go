package upgrade

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/metrics"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Story is what happened to one workload in one run, in the terms a
// person compares across releases: when it arrived, each admission
// (where, on which flavors), each preemption and eviction with Kueue's
// reason, how it finished, a webhook's refusal, and whether it still
// waited when the run ended. Times are simulated time since the start of
// the run.
type Story struct {
	Workload string `json:"workload"`
	Stream   string `json:"stream,omitempty"`
	Team     string `json:"team,omitempty"`
	Kind     string `json:"kind,omitempty"`
	// ClusterQueue is where the workload's LocalQueue points.
	ClusterQueue string          `json:"clusterQueue,omitempty"`
	Arrived      record.Duration `json:"arrived"`
	Admissions   []Admission     `json:"admissions,omitempty"`
	Preemptions  []Moment        `json:"preemptions,omitempty"`
	// Evictions are Kueue's evictions other than preemption, e.g.
	// PodsReadyTimeout.
	Evictions []Moment `json:"evictions,omitempty"`
	// Finished carries Succeeded or Failed.
	Finished *Moment `json:"finished,omitempty"`
	// Refused carries the API error reason and the webhook's message.
	Refused *Moment          `json:"refused,omitempty"`
	Deleted *record.Duration `json:"deleted,omitempty"`
	// PendingAtEnd: the workload waited for admission when the run ended;
	// Pending is Kueue's last word on why.
	PendingAtEnd bool    `json:"pendingAtEnd,omitempty"`
	Pending      *Moment `json:"pending,omitempty"`
}

// Admission is one admission: when, into which ClusterQueue, and the
// flavor Kueue assigned to each resource.
type Admission struct {
	T            record.Duration   `json:"t"`
	ClusterQueue string            `json:"clusterQueue"`
	Flavors      map[string]string `json:"flavors,omitempty"`
}

// Moment is a reasoned turn of a story: when, and Kueue's (or the API
// server's) reason.
type Moment struct {
	T       record.Duration `json:"t"`
	Reason  string          `json:"reason,omitempty"`
	Message string          `json:"message,omitempty"`
}

// Stories tells each workload's story, keyed by workload (namespace/name).
// Only the reasons are kept of Kueue's preemptions and evictions: their
// messages name UIDs, which differ between any two runs.
func Stories(run *record.Run) map[string]Story {
	out := make(map[string]Story, len(run.Workloads))
	for _, w := range run.Workloads {
		s := Story{
			Workload: w.Name, Stream: w.Stream, Team: w.Team, Kind: w.Kind,
			ClusterQueue: w.ClusterQueue, Arrived: record.Duration(w.Arrived),
			PendingAtEnd: metrics.PendingAtEnd(w),
		}
		for _, a := range w.Admissions {
			s.Admissions = append(s.Admissions, Admission{T: a.T, ClusterQueue: a.ClusterQueue, Flavors: a.Flavors})
		}
		s.Preemptions = reasons(w.Preemptions)
		s.Evictions = reasons(w.Evictions)
		if e := w.Finished; e != nil {
			s.Finished = &Moment{T: e.T, Reason: e.Reason}
		}
		if e := w.Refused; e != nil {
			s.Refused = &Moment{T: e.T, Reason: e.Reason, Message: e.Message}
		}
		if w.Deleted != nil {
			d := record.Duration(*w.Deleted)
			s.Deleted = &d
		}
		if e := w.LastPending; e != nil && s.PendingAtEnd {
			s.Pending = &Moment{T: e.T, Reason: e.Reason, Message: e.Message}
		}
		out[w.Name] = s
	}
	return out
}

func reasons(evs []record.Event) []Moment {
	var out []Moment
	for _, e := range evs {
		out = append(out, Moment{T: e.T, Reason: e.Reason})
	}
	return out
}

// Admitted tells whether the workload was ever admitted.
func (s Story) Admitted() bool { return len(s.Admissions) > 0 }

// String tells the story on one line, in time order, e.g. "arrived 0s,
// admitted 30m on a100, preempted 40m (InClusterQueue), admitted 50m on
// a100, finished 2h (Succeeded)".
func (s Story) String() string {
	// Within one instant the story keeps the run's order: an end comes
	// before the admission that follows it, a finish after the admission
	// it closes.
	const (
		arrival = iota
		refused
		ended
		admitted
		finished
	)
	type line struct {
		t    record.Duration
		rank int
		text string
	}
	lines := []line{{s.Arrived, arrival, "arrived " + short(s.Arrived)}}
	if r := s.Refused; r != nil {
		lines = append(lines, line{r.T, refused, "refused " + short(r.T) + " (" + refusal(*r) + ")"})
	}
	for _, a := range s.Admissions {
		text := "admitted " + short(a.T)
		if f := flavorText(a.Flavors); f != "" {
			text += " on " + f
		}
		if a.ClusterQueue != s.ClusterQueue {
			text += " in " + a.ClusterQueue
		}
		lines = append(lines, line{a.T, admitted, text})
	}
	for _, p := range s.Preemptions {
		lines = append(lines, line{p.T, ended, "preempted " + short(p.T) + " (" + p.Reason + ")"})
	}
	for _, e := range s.Evictions {
		lines = append(lines, line{e.T, ended, "evicted " + short(e.T) + " (" + e.Reason + ")"})
	}
	if f := s.Finished; f != nil {
		lines = append(lines, line{f.T, finished, "finished " + short(f.T) + " (" + f.Reason + ")"})
	}
	if d := s.Deleted; d != nil {
		lines = append(lines, line{*d, finished, "deleted " + short(*d)})
	}
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].t != lines[j].t {
			return lines[i].t < lines[j].t
		}
		return lines[i].rank < lines[j].rank
	})
	parts := make([]string, 0, len(lines)+1)
	for _, l := range lines {
		parts = append(parts, l.text)
	}
	if s.PendingAtEnd {
		pending := "still pending at the end"
		if p := s.Pending; p != nil && p.Message != "" {
			pending += " (" + p.Message + ")"
		}
		parts = append(parts, pending)
	}
	return strings.Join(parts, ", ")
}

// refusal is the webhook's message, else the API error reason.
func refusal(m Moment) string {
	if m.Message != "" {
		return m.Message
	}
	return m.Reason
}

// flavorText names the flavor when every resource got the same one (the
// common case), else each resource's: "cpu=default, nvidia.com/gpu=a100".
func flavorText(flavors map[string]string) string {
	distinct := map[string]bool{}
	for _, f := range flavors {
		distinct[f] = true
	}
	if len(distinct) == 1 {
		for f := range distinct {
			return f
		}
	}
	var parts []string
	for _, res := range sortedKeys(flavors) {
		parts = append(parts, res+"="+flavors[res])
	}
	return strings.Join(parts, ", ")
}

// short formats a simulated time or duration rounded to the second without the zero tails
// of time.Duration's format: 1h5m, 30m, 1m30s, 0s.
func short(d record.Duration) string {
	s := d.D().Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// count writes n with its noun: "1 time", "3 times".
func count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
