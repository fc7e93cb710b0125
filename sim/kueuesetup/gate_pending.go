package kueuesetup

// Kueue's pending gauge asks the queue manager's StatusChecker, the gate,
// whether a ClusterQueue is active, and counts every pending workload of
// an inactive one as inadmissible. While the gate holds the scheduler (or
// pauses it after an evicting cycle) it answers "no" for every
// ClusterQueue, so the gauge then shows the hold, not Kueue: active 0,
// inadmissible everything pending. A replay's step ends held (the engine
// parks Kueue's scheduler before it records the step), so the gate keeps
// the gauge as Kueue published it just before the hold, while the
// scheduler still went on as Kueue's own: that is Kueue's view at the
// settled instant.

// takePublished keeps the gauge as it stands for PendingCounts. Hold calls
// it, with g.mu held, when the scheduler was going: a paused scheduler's
// gauge shows the pause, so then there is nothing to keep.
func (g *SchedulerGate) takePublished() {
	g.published, g.publishedErr = nil, nil
	if g.paused {
		return
	}
	g.published, g.publishedErr = publishedPending()
}

// PendingCounts is the ClusterQueue's pending workloads as Kueue's
// kueue_pending_workloads gauge published them: while the gate holds the
// scheduler, as they stood when the hold began (a step parks the
// scheduler once the control plane has settled, so these are the settled
// instant's numbers, Kueue's own and not the hold's); otherwise as they
// stand now. False when Kueue has published nothing for the ClusterQueue,
// or the scheduler was paused after an evicting cycle when the hold began
// (the gauge showed the pause then).
func (g *SchedulerGate) PendingCounts(clusterQueue string) (PendingCounts, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	published, err := g.published, g.publishedErr
	switch {
	case g.held:
	case g.paused:
		return PendingCounts{}, false, nil
	default:
		published, err = publishedPending()
	}
	if err != nil {
		return PendingCounts{}, false, err
	}
	c, ok := published[clusterQueue]
	return c, ok, nil
}
