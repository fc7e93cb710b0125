package kube

import (
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// demand is what a group of workloads (one ClusterQueue's, one flavor's)
// asked for at once, per resource.
type demand struct {
	// Peak is the largest sum of the requests of workloads admitted at the
	// same instant, per resource (each resource's peak on its own).
	Peak corev1.ResourceList
	// Largest is the most one workload asks for, per resource: the least a
	// quota must hold for every workload to be admitted once.
	Largest corev1.ResourceList
	// LargestPod is the most one pod asks for, per resource, among the
	// workloads that run pods: the least a node must hold.
	LargestPod corev1.ResourceList
}

// need is the quota that covers both the peak and the largest workload.
func (d demand) need() corev1.ResourceList {
	out := d.Peak.DeepCopy()
	if out == nil {
		out = corev1.ResourceList{}
	}
	maxInto(out, d.Largest)
	return out
}

// usage is what one workload holds over [from, to).
type usage struct {
	from, to time.Time
	req      corev1.ResourceList
}

// demandOf sweeps the admitted intervals of recs (up to now for the ones
// still running); pick selects and weighs each record's requests (nil: the
// record does not count).
func demandOf(recs []record, now time.Time, pick func(record) corev1.ResourceList) demand {
	d := demand{Peak: corev1.ResourceList{}, Largest: corev1.ResourceList{}, LargestPod: corev1.ResourceList{}}
	var us []usage
	for _, r := range recs {
		req := pick(r)
		if req == nil {
			continue
		}
		maxInto(d.Largest, req)
		if r.Kind != "Workload" {
			maxInto(d.LargestPod, onlyOf(r.Requests, req))
		}
		if r.Admitted == nil {
			continue
		}
		to := now
		if r.Finished != nil {
			to = *r.Finished
		}
		if !to.After(*r.Admitted) {
			to = r.Admitted.Add(time.Second)
		}
		us = append(us, usage{from: *r.Admitted, to: to, req: req})
	}
	type edge struct {
		at    time.Time
		start bool
		req   corev1.ResourceList
	}
	edges := make([]edge, 0, 2*len(us))
	for _, u := range us {
		edges = append(edges, edge{u.from, true, u.req}, edge{u.to, false, u.req})
	}
	// Ends before starts at the same instant: a workload that ends frees
	// its quota for one admitted then.
	sort.SliceStable(edges, func(i, j int) bool {
		if !edges[i].at.Equal(edges[j].at) {
			return edges[i].at.Before(edges[j].at)
		}
		return !edges[i].start && edges[j].start
	})
	cur := corev1.ResourceList{}
	for _, e := range edges {
		if e.start {
			add(cur, e.req)
			maxInto(d.Peak, cur)
		} else {
			sub(cur, e.req)
		}
	}
	return d
}

// onlyOf keeps the resources of perPod that the picked requests name.
func onlyOf(perPod, picked corev1.ResourceList) corev1.ResourceList {
	out := corev1.ResourceList{}
	for name, q := range perPod {
		if _, ok := picked[name]; ok {
			out[name] = q.DeepCopy()
		}
	}
	return out
}

func sub(a, b corev1.ResourceList) {
	for name, q := range b {
		v := a[name]
		v.Sub(q)
		a[name] = v
	}
}

// total is the whole workload's requests.
func total(r record) corev1.ResourceList { return r.Total }

// onFlavor picks the part of a record's requests Kueue assigned to flavor
// (resources without an assignment go to fallback).
func onFlavor(flavor, fallback string) func(record) corev1.ResourceList {
	return func(r record) corev1.ResourceList {
		out := corev1.ResourceList{}
		for name, q := range r.Total {
			f, ok := r.Flavors[name]
			if !ok {
				f = fallback
			}
			if f == flavor {
				out[name] = q.DeepCopy()
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
}

// ceilDiv is ⌈a/b⌉ of two quantities, at least 0.
func ceilDiv(a, b resource.Quantity) int64 {
	if b.IsZero() || a.Sign() <= 0 {
		return 0
	}
	am, bm := a.MilliValue(), b.MilliValue()
	return (am + bm - 1) / bm
}
