package reports

import (
	"math"
	"sort"

	"github.com/kueue-sim/kueue-sim/sim/expect"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// CohortFairness is how a cohort's quota of one resource was shared.
type CohortFairness struct {
	Cohort   string `json:"cohort"`
	Resource string `json:"resource"`
	// Quota is the sum of the members' nominal quotas, over flavors.
	Quota float64 `json:"quota"`
	// Jain is Jain's fairness index (1 = every ClusterQueue with demand held
	// exactly its fair share; 1/n = one held everything), time-averaged over
	// ContendedSeconds; nil when there was no contention.
	Jain             *float64 `json:"jain"`
	ContendedSeconds float64  `json:"contendedSeconds"`
	Members          []Member `json:"members"`
}

// Member is one ClusterQueue's share while it had pending demand, as a
// fraction of the cohort's quota, time-averaged.
type Member struct {
	ClusterQueue string  `json:"clusterQueue"`
	Weight       float64 `json:"weight"`
	// DemandSeconds is how long it had workloads waiting.
	DemandSeconds    float64 `json:"demandSeconds"`
	AverageShare     float64 `json:"averageShare"`
	AverageFairShare float64 `json:"averageFairShare"`
	// WorstShortfall is the largest gap below its fair share.
	WorstShortfall float64 `json:"worstShortfall"`
}

func fairness(run *record.Run, tl *timeline, res string) []CohortFairness {
	cohorts := map[string][]string{}
	for cq, c := range run.Cohorts {
		if c != "" {
			cohorts[c] = append(cohorts[c], cq)
		}
	}
	out := []CohortFairness{}
	for _, name := range sortedKeys(cohorts) {
		cqs := cohorts[name]
		sort.Strings(cqs)
		total := 0.0
		for _, cq := range cqs {
			for _, byRes := range run.Quotas[cq] {
				total += byRes[res]
			}
		}
		if len(cqs) < 2 || total == 0 {
			continue
		}
		out = append(out, cohortFairness(run, tl, name, cqs, res, total))
	}
	return out
}

func cohortFairness(run *record.Run, tl *timeline, cohort string, cqs []string, res string, total float64) CohortFairness {
	f := CohortFairness{Cohort: cohort, Resource: res, Quota: total}
	type acc struct{ dt, share, fair, worst float64 }
	accs := map[string]*acc{}
	for _, cq := range cqs {
		accs[cq] = &acc{}
	}
	// Each member's series of res, over flavors, and its pending series.
	held := map[string][]int{}
	for i, k := range tl.cqs.list {
		if k.Resource == res {
			held[k.Group] = append(held[k.Group], i)
		}
	}
	jainSum := 0.0
	for _, s := range tl.Segments {
		dt := s.Seconds()
		use, demand, pend := map[string]float64{}, map[string]float64{}, map[string]float64{}
		pending := false
		for _, cq := range cqs {
			for _, i := range held[cq] {
				use[cq] += s.cq[i]
			}
			pend[cq] = tl.pendingAt(s, cq, res)
			demand[cq] = use[cq] + pend[cq]
			pending = pending || pend[cq] > 0
		}
		fair := expect.FairShares(total, cqs, run.Weights, demand)
		var xs []float64
		for _, cq := range cqs {
			if pend[cq] > 0 {
				a := accs[cq]
				a.dt += dt
				a.share += dt * use[cq] / total
				a.fair += dt * fair[cq] / total
				a.worst = math.Max(a.worst, (fair[cq]-use[cq])/total)
			}
			if demand[cq] > 0 && fair[cq] > 0 {
				xs = append(xs, use[cq]/fair[cq])
			}
		}
		if j, ok := jain(xs); ok && pending && len(xs) >= 2 && dt > 0 {
			jainSum += j * dt
			f.ContendedSeconds += dt
		}
	}
	if f.ContendedSeconds > 0 {
		j := jainSum / f.ContendedSeconds
		f.Jain = &j
	}
	for _, cq := range cqs {
		a := accs[cq]
		m := Member{ClusterQueue: cq, Weight: weightOf(run.Weights, cq), DemandSeconds: a.dt, WorstShortfall: clean(a.worst)}
		if a.dt > 0 {
			m.AverageShare, m.AverageFairShare = a.share/a.dt, a.fair/a.dt
		}
		f.Members = append(f.Members, m)
	}
	return f
}

// jain is Jain's fairness index (Σx)² / (n·Σx²); not defined when every x
// is 0.
func jain(xs []float64) (float64, bool) {
	sum, sq := 0.0, 0.0
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	if len(xs) == 0 || sq == 0 {
		return 0, false
	}
	return sum * sum / (float64(len(xs)) * sq), true
}
