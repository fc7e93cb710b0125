package metrics

import (
	"math"
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// ShareUnit is what Kueue's weightedShare counts to for a member of
// weight 1 that borrows the cohort's whole lendable quota: a weighted
// share of 100 is a tenth of it.
const ShareUnit = 1000

// Kinds of cohort member.
const (
	KindClusterQueue = "ClusterQueue"
	KindCohort       = "Cohort"
)

// SharePoint is one weighted share Kueue published.
type SharePoint struct {
	T     time.Duration
	Share int64
}

// ShareSeries is what Kueue published as status.fairSharing.weightedShare
// for one ClusterQueue or Cohort, in simulated time order.
type ShareSeries struct {
	Kind, Name string
	Points     []SharePoint
}

// ShareSeriesOf lists the run's Share events as series, ClusterQueues
// first, each kind by name.
func ShareSeriesOf(run *record.Run) []ShareSeries {
	byKey := map[[2]string]*ShareSeries{}
	var out []*ShareSeries
	for _, e := range run.Shares {
		k := [2]string{KindClusterQueue, e.ClusterQueue}
		if e.Cohort != "" {
			k = [2]string{KindCohort, e.Cohort}
		}
		s := byKey[k]
		if s == nil {
			s = &ShareSeries{Kind: k[0], Name: k[1]}
			byKey[k] = s
			out = append(out, s)
		}
		s.Points = append(s.Points, SharePoint{T: e.T.D(), Share: *e.WeightedShare})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	res := make([]ShareSeries, len(out))
	for i, s := range out {
		sort.SliceStable(s.Points, func(a, b int) bool { return s.Points[a].T < s.Points[b].T })
		res[i] = *s
	}
	return res
}

// Member is a ClusterQueue or a Cohort directly in a cohort: the nodes
// Kueue's fair sharing compares with one another.
type Member struct {
	Kind, Name string
	Weight     float64
}

// CohortMembers lists cohort's ClusterQueues, then its child Cohorts, each
// by name.
func CohortMembers(run *record.Run, cohort string) []Member {
	var out []Member
	for _, cq := range sortedKeys(run.Cohorts) {
		if run.Cohorts[cq] == cohort && cohort != "" {
			out = append(out, Member{KindClusterQueue, cq, Weight(run.Weights, cq)})
		}
	}
	for _, c := range sortedKeys(run.CohortParents) {
		if run.CohortParents[c] == cohort && cohort != "" {
			out = append(out, Member{KindCohort, c, Weight(run.CohortWeights, c)})
		}
	}
	return out
}

// Cohorts lists every cohort the header names, by name.
func Cohorts(run *record.Run) []string {
	seen := map[string]bool{}
	for _, c := range run.Cohorts {
		seen[c] = true
	}
	for c, p := range run.CohortParents {
		seen[c], seen[p] = true, true
	}
	delete(seen, "")
	return sortedKeys(seen)
}

// memberOf is the member of cohort a ClusterQueue belongs to: itself, the
// child Cohort its cohorts lead up through, or "" outside the cohort.
func memberOf(run *record.Run, cohort, cq string) (kind, name string) {
	c := run.Cohorts[cq]
	if c == "" {
		return "", ""
	}
	if c == cohort {
		return KindClusterQueue, cq
	}
	for range len(run.CohortParents) + 1 {
		p := run.CohortParents[c]
		switch p {
		case "":
			return "", ""
		case cohort:
			return KindCohort, c
		}
		c = p
	}
	return "", "" // a cycle: not in the cohort
}

// MemberState is one member at one instant.
type MemberState struct {
	Member
	// Share is the latest weighted share Kueue published for the member
	// at or before the instant; Observed is false before the first.
	Share    int64
	Observed bool
	// Contradicted: the published share disagrees with the log's
	// admissions as Kueue defines it — above 0 while the ClusterQueue
	// holds no more than its nominal quota of every flavor's resource, or
	// 0 while it holds more of one. Kueue had not yet caught its status up
	// with its own admissions (it batches ClusterQueue status updates).
	// Only ClusterQueues are checked.
	Contradicted bool
	// Waiting counts its pending workloads (its subtree's, for a Cohort):
	// all of them, or those that request the resource swept for.
	Waiting int
}

// Judged tells whether the member's share can be relied on.
func (m MemberState) Judged() bool { return m.Observed && !m.Contradicted }

// ShareInstant is a cohort during a span of simulated time in which no
// published share, holding or waiting workload changed.
type ShareInstant struct {
	From, To time.Duration
	Members  []MemberState
	// list names the waiting workloads of a member; valid during visit.
	list func(member int) []*record.Workload
}

// WaitingWorkloads lists member i's waiting workloads by name. Call it
// within SweepCohort's visit only.
func (in ShareInstant) WaitingWorkloads(i int) []*record.Workload { return in.list(i) }

// Seconds is the instant's length.
func (in ShareInstant) Seconds() float64 { return (in.To - in.From).Seconds() }

// Gap is how far a member with waiting workloads (Low) trailed another
// member (High): High's weighted share minus Low's, in Kueue's units.
type Gap struct {
	Low, High int // indexes into Members
	Size      float64
}

// Gaps lists, for every judged member with waiting workloads, every judged
// member whose weighted share is higher, largest gap first (then by
// names).
func (in ShareInstant) Gaps() []Gap {
	var out []Gap
	for i, lo := range in.Members {
		if lo.Waiting == 0 || !lo.Judged() {
			continue
		}
		for j, hi := range in.Members {
			if j == i || !hi.Judged() || hi.Share <= lo.Share {
				continue
			}
			out = append(out, Gap{Low: i, High: j, Size: float64(hi.Share) - float64(lo.Share)})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Size > out[b].Size })
	return out
}

// Waiting tells whether a member had waiting workloads.
func (in ShareInstant) Waiting() bool {
	for _, m := range in.Members {
		if m.Waiting > 0 {
			return true
		}
	}
	return false
}

// FullyJudged tells whether every member's share can be relied on.
func (in ShareInstant) FullyJudged() bool {
	for _, m := range in.Members {
		if !m.Judged() {
			return false
		}
	}
	return true
}

// SweepCohort cuts the run into the instants at which cohort's members
// published weighted shares, held quota or had workloads waiting, and
// calls visit for each, in time order. resource, when set, keeps only the
// waiting workloads that request it. The shares are Kueue's, as observed:
// nothing here computes one.
func SweepCohort(run *record.Run, tl *Timeline, cohort, resource string, visit func(ShareInstant)) {
	members := CohortMembers(run, cohort)
	if len(members) == 0 {
		return
	}
	pos := map[[2]string]int{}
	for i, m := range members {
		pos[[2]string{m.Kind, m.Name}] = i
	}
	// The members' published shares.
	series := make([][]SharePoint, len(members))
	var cuts []time.Duration
	for _, s := range ShareSeriesOf(run) {
		if i, ok := pos[[2]string{s.Kind, s.Name}]; ok {
			series[i] = s.Points
			for _, p := range s.Points {
				cuts = append(cuts, p.T)
			}
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i] < cuts[j] })
	// What each ClusterQueue member holds, and its nominal quota, per
	// flavor resource (the timeline's series).
	type held struct {
		i       int
		nominal float64
	}
	holds := make([][]held, len(members))
	for i, k := range tl.CQs.list {
		if j, ok := pos[[2]string{KindClusterQueue, k.Group}]; ok {
			holds[j] = append(holds[j], held{i, run.Quotas[k.Group][k.Flavor][k.Resource]})
		}
	}
	// Which member each ClusterQueue's waiting workloads count for.
	forCQ := map[string]int{}
	for cq := range run.Quotas {
		if kind, name := memberOf(run, cohort, cq); kind != "" {
			forCQ[cq] = pos[[2]string{kind, name}]
		}
	}
	for _, w := range run.Workloads {
		if _, ok := forCQ[w.ClusterQueue]; !ok {
			if kind, name := memberOf(run, cohort, w.ClusterQueue); kind != "" {
				forCQ[w.ClusterQueue] = pos[[2]string{kind, name}]
			}
		}
	}
	cqs := sortedKeys(forCQ)
	byMember := make([][]string, len(members))
	for _, cq := range cqs {
		byMember[forCQ[cq]] = append(byMember[forCQ[cq]], cq)
	}
	var keep func(*record.Workload) bool
	if resource != "" {
		keep = func(w *record.Workload) bool { return w.Requests[resource] > 0 }
	}
	cursor := newPendingCursor(run, keep)
	list := func(i int) []*record.Workload {
		var out []*record.Workload
		for _, cq := range byMember[i] {
			out = append(out, cursor.waiting(cq)...)
		}
		sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
		return out
	}
	next := make([]int, len(members)) // next point of each series
	c := 0                            // next cut
	for _, seg := range tl.Segments {
		for from := seg.From; from < seg.To; {
			for c < len(cuts) && cuts[c] <= from {
				c++
			}
			to := seg.To
			if c < len(cuts) && cuts[c] < to {
				to = cuts[c]
			}
			cursor.advance(from)
			in := ShareInstant{From: from, To: to, Members: make([]MemberState, len(members)), list: list}
			for i, m := range members {
				st := MemberState{Member: m}
				pts := series[i]
				for next[i] < len(pts) && pts[next[i]].T <= from {
					next[i]++
				}
				if next[i] > 0 {
					st.Share, st.Observed = pts[next[i]-1].Share, true
				}
				if m.Kind == KindClusterQueue && st.Observed {
					borrowing := false
					for _, h := range holds[i] {
						if seg.CQ[h.i] > h.nominal+1e-9 {
							borrowing = true
						}
					}
					st.Contradicted = borrowing != (st.Share > 0)
				}
				for _, cq := range byMember[i] {
					st.Waiting += cursor.count[cq]
				}
				in.Members[i] = st
			}
			visit(in)
			from = to
		}
	}
}

// CohortFairness is how Kueue balanced one cohort, in Kueue's own terms:
// the weighted shares it published (status.fairSharing.weightedShare:
// usage above nominal quota over the cohort's lendable quota, of the
// dominant resource, divided by the weight, ×1000). Gaps are in the same
// units: how far a member with waiting workloads trailed another member.
type CohortFairness struct {
	Cohort string `json:"cohort"`
	// SharesObserved: the log holds weighted shares of the cohort's
	// members. Without them (fair sharing off, or a log recorded before
	// kueue-sim observed shares) only Members' names and weights are set.
	SharesObserved bool `json:"sharesObserved"`
	// WaitingSeconds is how long some member had workloads waiting.
	WaitingSeconds float64 `json:"waitingSeconds"`
	// UnjudgedSeconds is the part of WaitingSeconds during which some
	// member's published share was missing or disagreed with the log's
	// admissions (Kueue had not updated it yet): gaps there are taken
	// between the other members only.
	UnjudgedSeconds float64 `json:"unjudgedSeconds"`
	// MaxGap is the largest gap, MaxGapAtSeconds when it began, between
	// MaxGapLow (waiting) and MaxGapHigh; MeanGap is the largest gap of
	// each instant averaged over WaitingSeconds.
	MaxGap          float64          `json:"maxGap"`
	MaxGapAtSeconds float64          `json:"maxGapAtSeconds"`
	MaxGapLow       string           `json:"maxGapLow,omitempty"`
	MaxGapHigh      string           `json:"maxGapHigh,omitempty"`
	MeanGap         float64          `json:"meanGap"`
	Members         []MemberFairness `json:"members"`
}

// MemberFairness is one member's published weighted share over the run.
type MemberFairness struct {
	Kind   string  `json:"kind"`
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
	// WaitingSeconds is how long it had workloads waiting.
	WaitingSeconds float64 `json:"waitingSeconds"`
	// AverageShare is its weighted share averaged over the run (0 before
	// Kueue first published one); AverageShareWaiting over the time it had
	// workloads waiting.
	AverageShare        float64 `json:"averageShare"`
	AverageShareWaiting float64 `json:"averageShareWaiting"`
	PeakShare           float64 `json:"peakShare"`
	EndShare            float64 `json:"endShare"`
	// WorstGap is the most it trailed another member while it had
	// workloads waiting.
	WorstGap float64 `json:"worstGap"`
}

// Fairness is every cohort with two or more members, by name.
func Fairness(run *record.Run, tl *Timeline) []CohortFairness {
	out := []CohortFairness{}
	for _, cohort := range Cohorts(run) {
		members := CohortMembers(run, cohort)
		if len(members) < 2 {
			continue
		}
		out = append(out, cohortFairness(run, tl, cohort, members))
	}
	return out
}

func cohortFairness(run *record.Run, tl *Timeline, cohort string, members []Member) CohortFairness {
	bare := make([]MemberFairness, len(members))
	for i, m := range members {
		bare[i] = MemberFairness{Kind: m.Kind, Name: m.Name, Weight: m.Weight}
	}
	f := CohortFairness{Cohort: cohort, Members: append([]MemberFairness{}, bare...)}
	type acc struct{ share, shareWaiting float64 }
	accs := make([]acc, len(members))
	gapSum := 0.0
	SweepCohort(run, tl, cohort, "", func(in ShareInstant) {
		dt := in.Seconds()
		for i, m := range in.Members {
			if m.Observed {
				f.SharesObserved = true
			}
			mf := &f.Members[i]
			v := float64(m.Share)
			accs[i].share += v * dt
			mf.PeakShare = math.Max(mf.PeakShare, v)
			mf.EndShare = v
			if m.Waiting > 0 {
				mf.WaitingSeconds += dt
				accs[i].shareWaiting += v * dt
			}
		}
		if !in.Waiting() {
			return
		}
		f.WaitingSeconds += dt
		if !in.FullyJudged() {
			f.UnjudgedSeconds += dt
		}
		gaps := in.Gaps()
		if len(gaps) == 0 {
			return
		}
		g := gaps[0]
		gapSum += g.Size * dt
		if g.Size > f.MaxGap {
			f.MaxGap, f.MaxGapAtSeconds = g.Size, in.From.Seconds()
			f.MaxGapLow, f.MaxGapHigh = in.Members[g.Low].Name, in.Members[g.High].Name
		}
		for _, g := range gaps {
			mf := &f.Members[g.Low]
			mf.WorstGap = math.Max(mf.WorstGap, g.Size)
		}
	})
	if !f.SharesObserved {
		return CohortFairness{Cohort: cohort, Members: bare}
	}
	if f.WaitingSeconds > 0 {
		f.MeanGap = gapSum / f.WaitingSeconds
	}
	for i := range f.Members {
		if s := tl.End.Seconds(); s > 0 {
			f.Members[i].AverageShare = accs[i].share / s
		}
		if w := f.Members[i].WaitingSeconds; w > 0 {
			f.Members[i].AverageShareWaiting = accs[i].shareWaiting / w
		}
	}
	return f
}
