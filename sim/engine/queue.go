package engine

import (
	"container/heap"
	"time"
)

// action is something the engine does at a simulated time.
type action int

const (
	actArrive  action = iota // submit the workload
	actFinish                // end its run: pods succeed or fail
	actDelete                // delete a long-running workload
	actRequeue               // retry Kueue's inadmissible workloads (requeue.go)
	actWake                  // a time Kueue's Workload or LocalQueue reconciler waits for (wake.go)
	actChange                // apply and delete the cluster objects of a scenario change (changes.go)
)

type item struct {
	at         time.Duration
	seq        int // insertion order breaks ties
	act        action
	arrival    *Arrival
	position   int // an arrival's place among the arrivals of its instant
	st         *wlState
	generation int // a finish is stale if the workload restarted since
	change     int // a change's index in the scenario's changes
}

// timeline is a priority queue of actions by (time, insertion order),
// owned by the engine's loop.
type timeline struct {
	items []*item
	seq   int
	wakes int // items that are actWake
}

func (q *timeline) push(it *item) {
	it.seq = q.seq
	q.seq++
	if it.act == actWake {
		q.wakes++
	}
	heap.Push((*itemHeap)(&q.items), it)
}

func (q *timeline) empty() bool { return len(q.items) == 0 }

// onlyWakesNext tells whether every item due at the earliest time is an
// actWake. In the heap, the items of that time are the root and the
// descendants reached through items of that time.
func (q *timeline) onlyWakesNext() bool {
	if len(q.items) == 0 {
		return false
	}
	t := q.items[0].at
	stack := []int{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if q.items[i].act != actWake {
			return false
		}
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < len(q.items) && q.items[c].at == t {
				stack = append(stack, c)
			}
		}
	}
	return true
}

// onlyWakes tells whether every item left is an actWake: nothing of the
// scenario, and no requeue Kueue asked for, is to come.
func (q *timeline) onlyWakes() bool { return len(q.items) > 0 && q.wakes == len(q.items) }

func (q *timeline) next() time.Duration { return q.items[0].at }

// onlyRequeueNext tells whether the earliest item is a requeue with
// nothing else due at its time. In the heap, another item of that time
// would be one of the root's children.
func (q *timeline) onlyRequeueNext() bool {
	if len(q.items) == 0 || q.items[0].act != actRequeue {
		return false
	}
	for _, i := range []int{1, 2} {
		if i < len(q.items) && q.items[i].at == q.items[0].at {
			return false
		}
	}
	return true
}

// popAt removes and returns every item due at t.
func (q *timeline) popAt(t time.Duration) []*item {
	var out []*item
	for len(q.items) > 0 && q.items[0].at == t {
		it := heap.Pop((*itemHeap)(&q.items)).(*item)
		if it.act == actWake {
			q.wakes--
		}
		out = append(out, it)
	}
	return out
}

type itemHeap []*item

func (h itemHeap) Len() int { return len(h) }
func (h itemHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h itemHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *itemHeap) Push(x any)   { *h = append(*h, x.(*item)) }
func (h *itemHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}
