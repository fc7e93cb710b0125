package kube

import (
	"sort"
	"time"
)

// A forecast needs the cluster as it stands at Now, not its history: the
// workloads running then and those waiting. Replaying the history before
// Now rebuilds that state at the cost of every workload that finished
// meanwhile, and only Kueue's admission fair sharing, which weighs past
// usage, reads anything from them. So a forecast replays from the present
// (remainingOptions.history off): the finished workloads are left out, the
// running ones arrive first, a millisecond apart in the order Kueue
// admitted them, and the pending ones a second later, a millisecond apart
// in the order they were created, which is the order Kueue queues them in
// within a priority. The job arrives a second after the last of them.

// presentGap separates the running workloads' arrivals from the pending
// ones', and those from the present: Kueue admits each instant's arrivals
// before the next instant's.
const presentGap = time.Second

// presentStep separates consecutive arrivals at the present, so that their
// creation timestamps keep their order.
const presentStep = time.Millisecond

// atPresent re-times groups for a replay from the present: it drops the
// finished workloads' arrivals (their keys are neither running nor
// pending), places the running and pending ones as above, and returns
// where the present falls and how many finished workloads it left out.
func atPresent(groups map[streamKey][]arrival) (present time.Duration, leftOut int) {
	type ref struct {
		key   streamKey
		index int
	}
	var running, pending []ref
	for k, arr := range groups {
		if !k.running && !k.pending {
			leftOut += len(arr)
			delete(groups, k)
			continue
		}
		for i := range arr {
			if k.running {
				running = append(running, ref{k, i})
			} else {
				pending = append(pending, ref{k, i})
			}
		}
	}
	place := func(refs []ref, from time.Duration) time.Duration {
		sort.Slice(refs, func(i, j int) bool {
			a, b := groups[refs[i].key][refs[i].index], groups[refs[j].key][refs[j].index]
			if !a.since.Equal(b.since) {
				return a.since.Before(b.since)
			}
			return a.name < b.name
		})
		for i, r := range refs {
			groups[r.key][r.index].at = from + time.Duration(i)*presentStep
		}
		return from + time.Duration(len(refs))*presentStep
	}
	end := place(running, 0)
	end = place(pending, end+presentGap)
	return end + presentGap, leftOut
}
