package openb

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

func TestTimedImport(t *testing.T) {
	imp, err := FromFiles("testdata/nodes.csv", "testdata/tasks.csv", Options{Mode: Timed, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	s := imp.Scenario
	var pools []string
	for _, p := range s.Cluster.NodePools {
		pools = append(pools, p.Name)
	}
	if diff := cmp.Diff([]string{"cpu-0g-8c-32gi", "t4-2g-16c-64gi", "v100m16-4g-32c-128gi"}, pools); diff != "" {
		t.Errorf("pools (-want +got):\n%s", diff)
	}
	var flavors []string
	for _, f := range s.Queues.ResourceFlavors {
		flavors = append(flavors, f.Name)
	}
	if diff := cmp.Diff([]string{"cpu", "v100m16", "t4"}, flavors); diff != "" {
		t.Errorf("flavors in Kueue's order (-want +got):\n%s", diff)
	}
	q := s.Queues.ClusterQueues[0].ResourceGroups[0].Flavors[1]
	if g := q.Resources[GPUResource].Nominal; q.Name != "v100m16" || g.Value() != 8 {
		t.Errorf("v100m16 quota = %s %v, want 8 GPUs", q.Name, g.String())
	}
	// Trace order: p0 (0s), p4 (3s, same shape as p0), p1 (5s), p2, p3 (7s).
	type want struct {
		name  string
		at    []time.Duration
		durs  []time.Duration
		gpu   int64
		specs []string
	}
	wants := []want{
		{"shape-0", []time.Duration{0, 3 * time.Second}, []time.Duration{90 * time.Second, 90 * time.Second}, 1, nil},
		{"shape-1", []time.Duration{5 * time.Second}, []time.Duration{45 * time.Second}, 1, nil},
		{"shape-2", []time.Duration{7 * time.Second}, []time.Duration{82 * time.Second}, 2, []string{"T4", "V100M16"}},
		{"shape-3", []time.Duration{7 * time.Second}, []time.Duration{13 * time.Second}, 0, nil},
	}
	if len(s.Workloads) != len(wants) {
		t.Fatalf("%d streams, want %d", len(s.Workloads), len(wants))
	}
	for i, w := range wants {
		st := s.Workloads[i]
		var at, durs []time.Duration
		for j := range st.Arrival.At {
			at = append(at, st.Arrival.At[j].Duration)
			durs = append(durs, st.Durations[j].Duration)
		}
		g := st.Requests[GPUResource]
		var specs []string
		if len(st.RequiredNodeAffinity) > 0 {
			specs = st.RequiredNodeAffinity[0].Values
		}
		if st.Name != w.name || !cmp.Equal(at, w.at) || !cmp.Equal(durs, w.durs) || g.Value() != w.gpu || !cmp.Equal(specs, w.specs) {
			t.Errorf("stream %d = %s at %v durations %v gpu %d models %v; want %+v", i, st.Name, at, durs, g.Value(), specs, w)
		}
	}
	if _, ok := s.Workloads[3].Requests[GPUResource]; ok {
		t.Errorf("a CPU-only task requests GPUs")
	}
	if got := imp.Tasks[1]; got.Name != "p4" || got.Workload != "shape-0-1" || got.Line != 6 {
		t.Errorf("second task = %+v, want p4 as shape-0-1 from line 6", got)
	}
	// The written scenario loads, and the index maps workloads to tasks.
	dir := t.TempDir()
	out := filepath.Join(dir, "trace.yaml")
	if err := imp.Write(out); err != nil {
		t.Fatal(err)
	}
	if _, err := scenarios.LoadFile(out); err != nil {
		t.Fatalf("written scenario does not load: %v", err)
	}
	idx, err := ReadIndex(TasksPath(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(idx) != 5 || idx[2] != (IndexEntry{Workload: "shape-1-0", Task: "p1", Line: 3, GPUMilli: 500, At: 5}) {
		t.Errorf("index = %+v", idx)
	}
}

func TestMilliSharing(t *testing.T) {
	imp, err := FromFiles("testdata/nodes.csv", "testdata/tasks.csv", Options{Mode: Timed, Sharing: Milli})
	if err != nil {
		t.Fatal(err)
	}
	st := imp.Scenario.Workloads[1] // p1: half a GPU
	if q := st.Requests[GPUMilliResource]; q.Value() != 500 {
		t.Errorf("p1 requests %s of %s, want 500", q.String(), GPUMilliResource)
	}
	if _, ok := st.Requests[GPUResource]; ok {
		t.Errorf("milli sharing still requests whole GPUs")
	}
	for _, p := range imp.Scenario.Cluster.NodePools {
		if strings.HasPrefix(p.Name, "v100m16") {
			if q := p.Allocatable[GPUMilliResource]; q.Value() != 4000 {
				t.Errorf("a 4-GPU node has %s thousandths, want 4000", q.String())
			}
		}
	}
}

func TestBadRowsAreReportedWithLines(t *testing.T) {
	_, err := FromFiles("testdata/nodes.csv", "testdata/tasks-bad.csv", Options{Mode: Timed})
	var rows *RowsError
	if !errors.As(err, &rows) {
		t.Fatalf("error = %v, want bad rows", err)
	}
	want := map[int]string{
		3: `cpu_milli "abc" is not a whole number`,
		4: "only a single GPU can be shared",
		5: "gpu_milli 300 on a task without GPUs",
		6: `gpu_spec "A100" names no GPU model`,
		7: "deletion_time 10 is before creation_time 30",
		8: "wrong number of fields",
	}
	got := map[int]string{}
	for _, r := range rows.Rows {
		got[r.Line] = r.Msg
		if r.File != "testdata/tasks-bad.csv" {
			t.Errorf("row %v names file %q", r, r.File)
		}
	}
	for line, msg := range want {
		if !strings.Contains(got[line], msg) {
			t.Errorf("line %d: got %q, want it to say %q", line, got[line], msg)
		}
	}
	if len(got) != len(want) {
		t.Errorf("bad rows = %v, want lines %v", got, want)
	}
	imp, err := FromFiles("testdata/nodes.csv", "testdata/tasks-bad.csv", Options{Mode: Timed, SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Tasks) != 1 || len(imp.Bad) != len(want) {
		t.Errorf("skipping: %d tasks, %d bad rows; want 1 and %d", len(imp.Tasks), len(imp.Bad), len(want))
	}
	if _, err := FromFiles("testdata/nodes.csv", "testdata/tasks-notimes.csv", Options{Mode: Timed}); err == nil ||
		!strings.Contains(err.Error(), "creation_time") {
		t.Errorf("timed import without times: %v", err)
	}
}

func TestFillResamplesToTheTarget(t *testing.T) {
	run := func(seed int64) *Import {
		imp, err := FromFiles("testdata/nodes.csv", "testdata/tasks-notimes.csv", Options{Mode: Fill, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return imp
	}
	imp := run(42)
	// 10 GPUs; the list asks for 3.25; 130% is 13.
	var total int64
	last := int64(0)
	for i, p := range imp.Tasks {
		total += p.TotalMilli()
		if want := (total*100 + 9999) / 10000; p.At != want || p.At < last {
			t.Errorf("task %d (%s) arrives at %d, want %d (non-decreasing)", i, p.Name, p.At, want)
		}
		last = p.At
	}
	// The published stop test adds one GPU's share of the drawn task, so a
	// 2-GPU task may end one GPU over the target.
	if total > 14000 || total < 13000-1000 {
		t.Errorf("resampled demand = %d thousandths, want within a GPU of 13000", total)
	}
	if imp.Original != 3 || len(imp.Tasks) <= 3 {
		t.Errorf("original %d, resampled %d tasks", imp.Original, len(imp.Tasks))
	}
	for _, st := range imp.Scenario.Workloads {
		if st.Duration != nil || len(st.Durations) > 0 {
			t.Errorf("stream %s leaves: fill-mode tasks never leave", st.Name)
		}
	}
	var a, b bytes.Buffer
	_ = imp.WriteTasks(&a)
	_ = run(42).WriteTasks(&b)
	if a.String() != b.String() {
		t.Errorf("same seed, different imports")
	}
}

func TestAllocationCurve(t *testing.T) {
	index := []IndexEntry{
		{Workload: "s-0", GPUMilli: 1000, At: 10},
		{Workload: "s-1", GPUMilli: 500, At: 15},
		{Workload: "s-2", GPUMilli: 2000, At: 35},
	}
	ev := func(sec int, typ, wl string) record.Event {
		return record.Event{T: record.Duration(time.Duration(sec) * time.Second), Type: typ, Workload: "openb/" + wl, Kind: "Job"}
	}
	events := []record.Event{
		ev(10, record.TypeAdmitted, "s-0"), ev(10, record.TypePlaced, "s-0"),
		ev(15, record.TypeAdmitted, "s-1"), // admitted, never placed
		ev(35, record.TypeAdmitted, "s-2"), ev(36, record.TypePlaced, "s-2"), ev(40, record.TypePlaced, "s-2"),
	}
	c, err := AllocationCurve(index, events, 10)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		j                  int
		arr, adm, allocted float64
	}{{9, 0, 0, 0}, {10, 10, 10, 10}, {15, 15, 15, 10}, {35, 35, 35, 10}, {36, 35, 35, 30}, {130, 35, 35, 30}}
	for _, ch := range checks {
		if c.Arrived[ch.j] != ch.arr || c.Admitted[ch.j] != ch.adm || c.Allocated[ch.j] != ch.allocted {
			t.Errorf("point %d: arrived %g admitted %g allocated %g; want %g %g %g", ch.j, c.Arrived[ch.j], c.Admitted[ch.j], c.Allocated[ch.j], ch.arr, ch.adm, ch.allocted)
		}
	}
	if c.PlacedTasks != 2 || c.AdmittedTasks != 3 {
		t.Errorf("placed %d admitted %d", c.PlacedTasks, c.AdmittedTasks)
	}
}

func TestPublishedTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allo.csv")
	var sb strings.Builder
	sb.WriteString("workload,sc_policy,tune,seed,total_gpus")
	for j := 0; j < CurvePoints; j++ {
		sb.WriteString("," + itoa(j))
	}
	sb.WriteString("\n")
	row := func(policy, seed string, v float64) {
		sb.WriteString("openb_pod_list_default," + policy + ",1.3," + seed + ",10")
		for j := 0; j < CurvePoints; j++ {
			sb.WriteString("," + ftoa(v))
		}
		sb.WriteString("\n")
	}
	row("06-FGD", "42", 90)
	row("06-FGD", "43", 92)
	row("01-Random", "42", 80)
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pub, err := ReadPublished(path, "openb_pod_list_default", 1.3)
	if err != nil {
		t.Fatal(err)
	}
	if len(pub) != 2 || pub[1].Policy != "06-FGD" || pub[1].Seeds != 2 || pub[1].Curve[100] != 91 {
		t.Fatalf("published = %+v", pub)
	}
	var ours [CurvePoints]float64
	ours[100] = 77.5
	table := Table(pub, map[string][CurvePoints]float64{"Kueue + kube-scheduler": ours})
	for _, want := range []string{"| 06-FGD (mean of 2 seeds) |", "| 91.0 |", "| Kueue + kube-scheduler |", " 77.5 |"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if TraceName("../x/openb_pod_list_default.csv") != "openb_pod_list_default" {
		t.Errorf("TraceName")
	}
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
