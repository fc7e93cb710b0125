package reports

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

func bigLog(n int) []record.Event {
	rng := rand.New(rand.NewSource(1))
	seed := int64(1)
	hdr := record.Event{Type: record.TypeRun, Scenario: "big", Seed: &seed,
		Capacity: map[string]map[string]float64{"a100": {"nvidia.com/gpu": 400, "cpu": 4000, "memory": 1e13}, "h100": {"nvidia.com/gpu": 400, "cpu": 4000, "memory": 1e13}},
		Quotas:   map[string]map[string]map[string]float64{}, Cohorts: map[string]string{}, Weights: map[string]float64{}}
	for i := 0; i < 20; i++ {
		cq := fmt.Sprintf("cq-%d", i)
		hdr.Quotas[cq] = map[string]map[string]float64{"a100": {"nvidia.com/gpu": 20, "cpu": 200, "memory": 5e11}, "h100": {"nvidia.com/gpu": 20, "cpu": 200, "memory": 5e11}}
		hdr.Cohorts[cq] = "all"
	}
	evs := []record.Event{hdr}
	for i := 0; i < n; i++ {
		cq := fmt.Sprintf("cq-%d", i%20)
		fl := []string{"a100", "h100"}[i%2]
		name := fmt.Sprintf("ns/w-%d", i)
		at := time.Duration(i) * 10 * time.Second
		adm := at + time.Duration(rng.Intn(3600))*time.Second
		end := adm + time.Duration(600+rng.Intn(7200))*time.Second
		base := record.Event{Workload: name, Team: cq, Kind: "Workload", ClusterQueue: cq}
		a := base
		a.T, a.Type, a.Requests = record.Duration(at), record.TypeArrived, map[string]float64{"nvidia.com/gpu": 2, "cpu": 8, "memory": 6e10}
		b := base
		b.T, b.Type, b.Usage = record.Duration(adm), record.TypeAdmitted, map[string]map[string]float64{fl: {"nvidia.com/gpu": 2, "cpu": 8, "memory": 6e10}}
		c := base
		c.T, c.Type = record.Duration(end), record.TypeFinished
		evs = append(evs, a, b, c)
	}
	return evs
}

// BenchmarkBuildLarge measures Build and WriteFiles on 15,000 workloads
// in 20 ClusterQueues (about 40,000 segments): about 4 s of CPU and a
// heap under 300 MiB here.
func BenchmarkBuildLarge(b *testing.B) {
	evs := bigLog(15000)
	for b.Loop() {
		r := Build(record.Build(evs), nil)
		if err := r.WriteFiles(b.TempDir()); err != nil {
			b.Fatal(err)
		}
	}
}
