package reports

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// handmade loads testdata/handmade.jsonl: a one-hour run worked out by hand.
//
// Capacity: a100 8 GPUs, l4 4 GPUs. Cohort gpus holds team-a and team-b
// (4 a100 GPUs of nominal quota each); ClusterQueue notebooks has 4 l4 GPUs.
//
//	a-1 (team-a Job, 4)      admitted 0,    finished 1800
//	a-2 (team-a Job, 4)      admitted 0 (borrowing), preempted 600 by team-b,
//	                         admitted again 1800, finished 3000
//	b-3 (team-b Notebook, 2) admitted 0 on l4, runs to the end; its pod is
//	                         on a node of pool cpu, off its flavor
//	c-1 (team-b Notebook)    refused at 300
//	b-1 (team-b PyTorchJob, 4, 2 pods) arrives and admitted 600, finished 2400
//	b-2 (team-b Job, 4)      arrives 1200, admitted 2400, runs to the end
//	a-3 (team-a Job, 8)      arrives 3000, still pending at 3600
//
// a100 held: [0,3000) 8 GPUs, [3000,3600) 4 → 26400 GPU-s = 7.333 GPU-h of
// 8 available: 11/12.
func handmade(t *testing.T) *Report {
	t.Helper()
	run, results, err := LoadEvents(filepath.Join("testdata", "handmade.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return Build(run, results)
}

var approx = cmpopts.EquateApprox(0, 1e-9)

func TestHandmadeTotalsAndUtilization(t *testing.T) {
	r := handmade(t)
	want := Totals{Workloads: 7, Admitted: 5, Admissions: 6, Refused: 1, Preempted: 1, Preemptions: 1,
		Finished: 3, PendingAtEnd: 1, RunningAtEnd: 2, OffFlavorPods: 1}
	if diff := cmp.Diff(want, r.Totals); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
	if r.Resource != "nvidia.com/gpu" || r.DurationSeconds != 3600 {
		t.Errorf("resource %q over %gs, want nvidia.com/gpu over 3600s", r.Resource, r.DurationSeconds)
	}
	wantFlavors := []FlavorUsage{
		{Flavor: "a100", Resource: "nvidia.com/gpu", Capacity: 8, Quota: 8, UsedHours: 26400.0 / 3600, AvailableHours: 8,
			Utilization: 11.0 / 12, AverageUsed: 26400.0 / 3600, PeakUsed: 8},
		{Flavor: "l4", Resource: "nvidia.com/gpu", Capacity: 4, Quota: 4, UsedHours: 2, AvailableHours: 4,
			Utilization: 0.5, AverageUsed: 2, PeakUsed: 2},
	}
	if diff := cmp.Diff(wantFlavors, r.Flavors, approx); diff != "" {
		t.Errorf("flavors (-want +got):\n%s", diff)
	}
}

// team-a held 8 a100 GPUs on [0,600), 4 of them borrowed from team-b's
// unused quota (600 s × 4 = 2/3 GPU-h borrowed by team-a, lent by team-b),
// then 4 on [600,3000): 4 GPU-h in all. team-b held 4 on [600,3600): 10/3
// GPU-h.
func TestHandmadeClusterQueues(t *testing.T) {
	r := handmade(t)
	want := []ClusterQueue{
		{Name: "notebooks", Weight: 1, Workloads: 1, Admissions: 1, Resources: []QuotaUsage{
			{Flavor: "l4", Resource: "nvidia.com/gpu", Nominal: 4, UsedHours: 2, AverageUsed: 2, PeakUsed: 2}}},
		{Name: "team-a", Cohort: "gpus", Weight: 1, Workloads: 3, Admissions: 3, Preemptions: 1, PendingAtEnd: 1, Resources: []QuotaUsage{
			{Flavor: "a100", Resource: "nvidia.com/gpu", Nominal: 4, UsedHours: 4, AverageUsed: 4, PeakUsed: 8,
				BorrowedHours: 2.0 / 3, PeakBorrowed: 4}}},
		{Name: "team-b", Cohort: "gpus", Weight: 1, Workloads: 2, Admissions: 2, Resources: []QuotaUsage{
			{Flavor: "a100", Resource: "nvidia.com/gpu", Nominal: 4, UsedHours: 10.0 / 3, AverageUsed: 10.0 / 3, PeakUsed: 4,
				LentHours: 2.0 / 3, PeakLent: 4}}},
	}
	if diff := cmp.Diff(want, r.ClusterQueues, approx); diff != "" {
		t.Errorf("ClusterQueues (-want +got):\n%s", diff)
	}
	if len(r.Teams) != 2 || r.Teams[0].Name != "team-a" || r.Teams[1].Refused != 1 || r.Teams[1].Workloads != 4 {
		t.Errorf("teams: %+v", r.Teams)
	}
}

// Waits (refused c-1 left out): a-1 0, a-2 0, b-3 0, b-1 0, b-2 1200,
// a-3 600 (never admitted: until the end). Empirical quantiles: the p-th
// is the smallest wait with at least p of the waits at or below it.
func TestHandmadeWaits(t *testing.T) {
	r := handmade(t)
	want := []WaitStats{
		{Workloads: 6, NeverAdmitted: 1, Mean: 300, P50: 0, P90: 1200, P99: 1200, Max: 1200},
		{Team: "team-a", Workloads: 3, NeverAdmitted: 1, Mean: 200, P50: 0, P90: 600, P99: 600, Max: 600},
		{Team: "team-b", Workloads: 3, Mean: 400, P50: 0, P90: 1200, P99: 1200, Max: 1200},
		{Kind: "Job", Workloads: 4, NeverAdmitted: 1, Mean: 450, P50: 0, P90: 1200, P99: 1200, Max: 1200},
		{Kind: "Notebook", Workloads: 1},
		{Kind: "PyTorchJob", Workloads: 1},
	}
	if diff := cmp.Diff(want, r.Waits, approx); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

// Fairness in cohort gpus, in the weighted shares Kueue published:
// team-a 500 on [0,600) (it borrows 4 of the cohort's 8 lendable GPUs),
// then 0; team-b 0 throughout. Workloads waited on [600,2400) (a-2, then
// b-2) and [3000,3600) (a-3): 2400 s, with no gap, every share being 0
// by then. team-a waited 1800 s and averaged 500·600/3600 over the run.
func TestHandmadeFairness(t *testing.T) {
	r := handmade(t)
	want := []CohortFairness{{Cohort: "gpus", SharesObserved: true, WaitingSeconds: 2400,
		Members: []MemberFairness{
			{Kind: "ClusterQueue", Name: "team-a", Weight: 1, WaitingSeconds: 1800, AverageShare: 500.0 * 600 / 3600, PeakShare: 500},
			{Kind: "ClusterQueue", Name: "team-b", Weight: 1, WaitingSeconds: 1200},
		}}}
	if diff := cmp.Diff(want, r.Fairness, approx); diff != "" {
		t.Errorf("fairness (-want +got):\n%s", diff)
	}
	var b bytes.Buffer
	if err := r.WriteCSV("shares.csv", &b); err != nil {
		t.Fatal(err)
	}
	wantCSV := `t_seconds,kind,name,cohort,weight,weighted_share
0,ClusterQueue,notebooks,,1,0
3600,ClusterQueue,notebooks,,1,0
0,ClusterQueue,team-a,gpus,1,500
600,ClusterQueue,team-a,gpus,1,0
3600,ClusterQueue,team-a,gpus,1,0
0,ClusterQueue,team-b,gpus,1,0
3600,ClusterQueue,team-b,gpus,1,0
0,Cohort,gpus,,1,0
3600,Cohort,gpus,,1,0
`
	if diff := cmp.Diff(wantCSV, b.String()); diff != "" {
		t.Errorf("shares.csv (-want +got):\n%s", diff)
	}
}

// A log recorded before kueue-sim observed weighted shares has no fairness
// numbers, says so, and yields no fairness metric.
func TestFairnessWithoutShares(t *testing.T) {
	run, results, err := LoadEvents(filepath.Join("testdata", "handmade.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	run.Shares = nil
	r := Build(run, results)
	if r.SharesObserved() || len(r.Fairness) != 1 || r.Fairness[0].SharesObserved {
		t.Fatalf("fairness without shares: %+v", r.Fairness)
	}
	for _, m := range r.Metrics() {
		if m.Name == "fair_share_gap" {
			t.Errorf("metric %s from a log without shares", m.ID())
		}
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "the log holds no weighted share of its members") {
		t.Errorf("report.md does not say the shares are missing:\n%s", b.String())
	}
	charts, err := r.Charts()
	if err != nil || len(charts) != 3 {
		t.Errorf("charts without shares: %d, %v; want the 3 others", len(charts), err)
	}
}

func TestHandmadeDecisionsPlacementAndWhy(t *testing.T) {
	r := handmade(t)
	if diff := cmp.Diff([]ReasonCount{{Reason: "InCohortReclamation", Count: 1, Meaning: reasonMeaning("InCohortReclamation")}}, r.Preemptions); diff != "" {
		t.Errorf("preemptions (-want +got):\n%s", diff)
	}
	if len(r.Refusals) != 1 || r.Refusals[0].Team != "team-b" || r.Refusals[0].Kind != "Notebook" || r.Refusals[0].Count != 1 {
		t.Errorf("refusals: %+v", r.Refusals)
	}
	wantPools := []PoolPlacement{
		{Pool: "a100", Pods: 6, ByFlavor: map[string]int{"a100": 6}},
		{Pool: "cpu", Pods: 1, ByFlavor: map[string]int{"l4": 1}, OffFlavor: 1},
	}
	if diff := cmp.Diff(wantPools, r.Placement); diff != "" {
		t.Errorf("placement (-want +got):\n%s", diff)
	}
	var got []string
	for _, y := range r.Why {
		got = append(got, y.Workload+" "+y.State+" at "+Dur(y.AtSeconds)+": "+y.Explanation)
	}
	want := []string{
		"team-a/a-2 preempted at 10m0s: preempted because ClusterQueue team-b reclaimed its nominal quota, which team-a was borrowing",
		"team-a/a-3 pending at 1h0m0s: waiting for admission: its ClusterQueue (with what it may borrow) lacks 4 nvidia.com/gpu of flavor a100 right now; it waits for running workloads to end",
		"team-b/c-1 refused at 5m0s: refused by an admission webhook when it was created: Notebook team-b/c-1 has no kueue.x-k8s.io/queue-name label",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("why (-want +got):\n%s", diff)
	}
}

func TestExplainPending(t *testing.T) {
	for msg, want := range map[string]string{
		"couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 2 more needed. Pending the preemption of 1 workload(s)":                                   "waiting for admission: its ClusterQueue (with what it may borrow) lacks 2 nvidia.com/gpu of flavor a100 right now; it waits for running workloads to end; Kueue is preempting 1 workload(s) to make room for it",
		"couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor a100, previously considered podsets requests (0) + current podset request (16) > maximum capacity (8)": "waiting for admission: it asks for more nvidia.com/gpu of flavor a100 (16) than its ClusterQueue can ever have, borrowing included (8): it cannot be admitted as configured",
		"couldn't assign flavors to pod set main: untolerated taint {gpu h100 NoSchedule} in flavor h100":                                                                                                "waiting for admission: flavor h100's nodes carry the taint {gpu h100 NoSchedule}, which the workload does not tolerate",
		"ClusterQueue team-x is inactive":          "waiting for admission: its ClusterQueue team-x is inactive (stopped, or a flavor or admission check it names is missing)",
		"something Kueue says that we do not know": `waiting for admission; Kueue says: "something Kueue says that we do not know"`,
	} {
		if got := explainPending(msg); got != want {
			t.Errorf("explainPending(%q)\n got %s\nwant %s", msg, got, want)
		}
	}
}

// The CSV series have a row where a value changes, and close at the end.
func TestHandmadeUtilizationCSV(t *testing.T) {
	var b bytes.Buffer
	if err := handmade(t).WriteCSV("utilization.csv", &b); err != nil {
		t.Fatal(err)
	}
	var a100 []string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.Contains(line, ",a100,") {
			a100 = append(a100, line)
		}
	}
	want := []string{"0,a100,nvidia.com/gpu,8,8,1", "3000,a100,nvidia.com/gpu,8,4,0.5", "3600,a100,nvidia.com/gpu,8,4,0.5"}
	if diff := cmp.Diff(want, a100); diff != "" {
		t.Errorf("utilization.csv a100 rows (-want +got):\n%s", diff)
	}
}

// WriteAll writes every file; report.json reads back with the same
// numbers and schema version.
func TestWriteAllAndLoad(t *testing.T) {
	dir := t.TempDir()
	r := handmade(t)
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{JSONFile, MarkdownFile, HTMLFile, "utilization.csv", "clusterqueues.csv", "teams.csv", "pending.csv", "waits.csv", "shares.csv"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.SchemaVersion != SchemaVersion || math.Abs(back.Flavors[0].Utilization-11.0/12) > 1e-9 {
		t.Errorf("report.json read back: schema %d, a100 utilization %g", back.SchemaVersion, back.Flavors[0].Utilization)
	}
	if diff := cmp.Diff(r.Metrics(), back.Metrics(), approx); diff != "" {
		t.Errorf("metrics of report.json differ from the built report's (-built +read):\n%s", diff)
	}
	md, _ := os.ReadFile(filepath.Join(dir, MarkdownFile))
	for _, s := range []string{"| a100 | 8 | 8 | 91.7% |", "| team-a | 1 | 30m0s | 83.33 | 0 | 500 | 0 | 0 |", "`team-a/a-3`", "| preemption | InCohortReclamation | 1 |"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("report.md lacks %q:\n%s", s, md)
		}
	}
	if len(md) > 60000 {
		t.Errorf("report.md is %d bytes, too long for a pull-request comment", len(md))
	}
}
