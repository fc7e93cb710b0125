package expect

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// workload checks what happened to one named workload: every check set
// must hold. The message names the workload, then what each check saw,
// with what it wanted where it does not hold.
func workload(run *record.Run, x *scenarios.WorkloadExpectation) Result {
	name := x.Name()
	w := findWorkload(run, x.Stream, name)
	if w == nil {
		return Result{Check: "workload", Message: missing(run, x.Stream, name)}
	}
	c := &workloadCheck{run: run, w: w, x: x, ts: tenures(w), passed: true}
	c.admission()
	c.admitted()
	c.admittedBy()
	c.at()
	c.admissions()
	c.reasons("preempted", w.Preemptions, x.Preempted)
	c.reasons("evicted", w.Evictions, x.Evicted)
	c.finished()
	return Result{Check: "workload", Passed: c.passed, Message: "workload " + name + " " + strings.Join(c.parts, "; ")}
}

// findWorkload is the workload of stream with this object name, or nil.
func findWorkload(run *record.Run, stream, name string) *record.Workload {
	for _, w := range run.Workloads {
		if w.Stream == stream && objectName(w.Name) == name {
			return w
		}
	}
	return nil
}

// objectName is the name part of namespace/name.
func objectName(key string) string {
	return key[strings.LastIndex(key, "/")+1:]
}

// missing says why a named workload is not in the run.
func missing(run *record.Run, stream, name string) string {
	var names []string
	for _, w := range run.Workloads {
		if w.Stream == stream {
			names = append(names, objectName(w.Name))
		}
	}
	if len(names) == 0 {
		return fmt.Sprintf("workload %s is not in the run: no workload of stream %s is (was the log recorded from this scenario?)", name, stream)
	}
	sort.Strings(names)
	return fmt.Sprintf("workload %s is not in the run, which ended at %s before it arrived: it holds %d of stream %s's workloads (%s)",
		name, run.End, len(names), stream, listSep(names, ", "))
}

// workloadCheck gathers the outcome of each check set.
type workloadCheck struct {
	run    *record.Run
	w      *record.Workload
	x      *scenarios.WorkloadExpectation
	ts     []tenure
	parts  []string
	passed bool
}

// add records one check's outcome: what was seen, and what was wanted if
// it does not hold.
func (c *workloadCheck) add(held bool, saw, want string) {
	if held {
		c.parts = append(c.parts, saw)
		return
	}
	c.passed = false
	c.parts = append(c.parts, saw+", want "+want)
}

// picked is the admission admittedOn and clusterQueue read (see
// scenarios.WorkloadExpectation.Admission), or nil with what was seen
// instead.
func (c *workloadCheck) picked() (*tenure, string) {
	switch {
	case c.x.Admission != nil:
		n := int(*c.x.Admission)
		if n <= len(c.ts) {
			return &c.ts[n-1], ""
		}
		return nil, fmt.Sprintf("has no %s admission (admitted %s)", ordinal(n), times(len(c.ts)))
	case c.x.AdmittedAt != nil:
		at := c.x.AdmittedAt.Duration
		if s := stateAt(c.run, c.w, c.ts, at); s.held != nil {
			return s.held, ""
		}
		return nil, fmt.Sprintf("held no admission at %s", at)
	case len(c.ts) > 0:
		return &c.ts[len(c.ts)-1], ""
	}
	return nil, "was never admitted" + c.waitingFor()
}

// admission checks admittedOn and clusterQueue on the picked admission.
func (c *workloadCheck) admission() {
	if c.x.AdmittedOn == nil && c.x.ClusterQueue == "" {
		return
	}
	var want []string
	if c.x.ClusterQueue != "" {
		want = append(want, "by ClusterQueue "+c.x.ClusterQueue)
	}
	if c.x.AdmittedOn != nil {
		wanted := map[string]string{}
		for r, f := range c.x.AdmittedOn {
			wanted[string(r)] = f
		}
		want = append(want, "on "+flavorList(wanted))
	}
	t, saw := c.picked()
	if t == nil {
		c.add(false, saw, strings.Join(want, " "))
		return
	}
	got := t.flavors()
	held := c.x.ClusterQueue == "" || t.admission.ClusterQueue == c.x.ClusterQueue
	for r, f := range c.x.AdmittedOn {
		held = held && got[string(r)] == f
	}
	var desc []string
	if c.x.ClusterQueue != "" {
		desc = append(desc, "by ClusterQueue "+t.admission.ClusterQueue)
	}
	if c.x.AdmittedOn != nil {
		desc = append(desc, "on "+flavorList(got))
	}
	c.add(held, fmt.Sprintf("was admitted %s at %s (%s admission)", strings.Join(desc, " "), t.at(), ordinal(t.n)), strings.Join(want, " "))
}

// flavorList is "cpu=on-demand, memory=on-demand", or "no flavor".
func flavorList(m map[string]string) string {
	if len(m) == 0 {
		return "no flavor"
	}
	keys := make([]string, 0, len(m))
	for r := range m {
		keys = append(keys, r)
	}
	sort.Strings(keys)
	for i, r := range keys {
		keys[i] = r + "=" + m[r]
	}
	return strings.Join(keys, ", ")
}

// waitingFor is why it waited: the webhook's refusal or Kueue's last
// word, or "".
func (c *workloadCheck) waitingFor() string {
	switch {
	case c.w.Refused != nil && c.w.Refused.Message != "":
		return fmt.Sprintf(" (refused by the webhook at %s: %s)", c.w.Refused.T.D(), c.w.Refused.Message)
	case c.w.Refused != nil:
		return fmt.Sprintf(" (refused by the webhook at %s)", c.w.Refused.T.D())
	case c.w.LastPending != nil && c.w.LastPending.Message != "":
		return fmt.Sprintf(" (Kueue at %s: %s)", c.w.LastPending.T.D(), c.w.LastPending.Message)
	}
	return ""
}

func (c *workloadCheck) admitted() {
	if c.x.Admitted == nil {
		return
	}
	if len(c.ts) == 0 {
		c.add(!*c.x.Admitted, "was never admitted"+c.waitingFor(), "admitted")
		return
	}
	saw := fmt.Sprintf("was admitted %s, first at %s", times(len(c.ts)), c.ts[0].at())
	c.add(*c.x.Admitted, saw, "never admitted")
}

// admittedBy checks the picked admission (the first by default) happened
// at or before the time.
func (c *workloadCheck) admittedBy() {
	if c.x.AdmittedBy == nil {
		return
	}
	by := c.x.AdmittedBy.Duration
	want := fmt.Sprintf("admitted by %s", by)
	n := 1
	if c.x.Admission != nil {
		n = int(*c.x.Admission)
		want = fmt.Sprintf("its %s admission by %s", ordinal(n), by)
	}
	switch {
	case len(c.ts) == 0:
		c.add(false, "was never admitted"+c.waitingFor(), want)
	case n > len(c.ts):
		c.add(false, fmt.Sprintf("has no %s admission (admitted %s)", ordinal(n), times(len(c.ts))), want)
	default:
		t := c.ts[n-1]
		c.add(t.at() <= by, t.describe(), want)
	}
}

// at checks admittedAt and pendingAt.
func (c *workloadCheck) at() {
	if a := c.x.AdmittedAt; a != nil {
		s := stateAt(c.run, c.w, c.ts, a.Duration)
		c.add(s.held != nil, s.says, "admitted then")
	}
	if p := c.x.PendingAt; p != nil {
		s := stateAt(c.run, c.w, c.ts, p.Duration)
		c.add(s.pending, s.says, "pending then")
	}
}

func (c *workloadCheck) admissions() {
	if c.x.Admissions == nil {
		return
	}
	want := int(*c.x.Admissions)
	saw := "was never admitted"
	if len(c.ts) > 0 {
		at := make([]string, len(c.ts))
		for i, t := range c.ts {
			at[i] = t.at().String()
		}
		saw = fmt.Sprintf("was admitted %s (at %s)", times(len(c.ts)), listSep(at, ", "))
	}
	c.add(len(c.ts) == want, saw, times(want))
}

// reasons checks preempted or evicted: how many of the events have the
// reason wanted.
func (c *workloadCheck) reasons(verb string, evs []record.Event, rc *scenarios.ReasonCount) {
	if rc == nil {
		return
	}
	matched := 0
	seen := make([]string, len(evs))
	for i, e := range evs {
		if scenarios.ReasonMatches(rc.Reason, e.Reason) {
			matched++
		}
		seen[i] = fmt.Sprintf("%s at %s", e.Reason, e.T.D())
	}
	saw := "was never " + verb
	if len(evs) > 0 {
		saw = fmt.Sprintf("was %s %s (%s)", verb, times(len(evs)), listSep(seen, ", "))
	}
	reason := ""
	if rc.Reason != "" {
		reason = " for reason " + rc.Reason
	}
	if rc.Count != nil {
		c.add(matched == int(*rc.Count), saw, fmt.Sprintf("%s %s%s", verb, times(int(*rc.Count)), reason))
		return
	}
	c.add(matched > 0, saw, verb+reason)
}

func (c *workloadCheck) finished() {
	if c.x.Finished == nil {
		return
	}
	if f := c.w.Finished; f != nil {
		c.add(*c.x.Finished, fmt.Sprintf("finished at %s (%s)", f.T.D(), f.Reason), "not finished")
		return
	}
	c.add(!*c.x.Finished, fmt.Sprintf("had not finished when the run ended at %s", c.run.End), "finished")
}
