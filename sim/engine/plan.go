package engine

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Arrival is one workload of a stream, planned before the run.
type Arrival struct {
	// Name is the workload's object name: <stream>-<index>.
	Name   string
	Stream *scenarios.Stream
	Team   *scenarios.Team
	Index  int
	At     time.Duration
	// Duration is how long it runs once all its pods run; 0 means until
	// RunUntil or the end.
	Duration time.Duration
}

// Plan lists every arrival of the scenario in (time, stream order, index)
// order. Random draws use one generator per stream, seeded from the seed and
// the stream's name, so adding a stream does not change the others.
func Plan(s *scenarios.Scenario, seed int64) ([]Arrival, error) {
	teams := map[string]*scenarios.Team{}
	for i := range s.Teams {
		teams[s.Teams[i].Name] = &s.Teams[i]
	}
	var out []Arrival
	order := map[*scenarios.Stream]int{}
	for i := range s.Workloads {
		st := &s.Workloads[i]
		order[st] = i
		rng := streamRand(seed, st.Name)
		times := arrivalTimes(st, rng)
		for j, at := range times {
			d, err := drawDuration(st.Duration, rng)
			if err != nil {
				return nil, fmt.Errorf("planning stream %s: %w", st.Name, err)
			}
			if j < len(st.Durations) {
				d = max(roundTick(st.Durations[j].Duration), tick)
			}
			out = append(out, Arrival{
				Name: fmt.Sprintf("%s-%d", st.Name, j), Stream: st, Team: teams[st.Team],
				Index: j, At: at, Duration: d,
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.At != b.At {
			return a.At < b.At
		}
		if order[a.Stream] != order[b.Stream] {
			return order[a.Stream] < order[b.Stream]
		}
		return a.Index < b.Index
	})
	return out, nil
}

func streamRand(seed int64, stream string) *rand.Rand {
	h := fnv.New64a()
	_, _ = h.Write([]byte(stream))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
}

func arrivalTimes(st *scenarios.Stream, rng *rand.Rand) []time.Duration {
	n := int(*st.Count)
	a := st.Arrival
	out := make([]time.Duration, 0, n)
	switch {
	case len(a.At) > 0:
		for _, d := range a.At {
			out = append(out, roundTick(d.Duration))
		}
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	case a.Every != nil:
		for i := 0; i < n; i++ {
			out = append(out, roundTick(start(a)+time.Duration(i)*a.Every.Duration))
		}
	case a.Poisson != nil:
		t := start(a)
		for i := 0; i < n; i++ {
			t += roundTick(time.Duration(rng.ExpFloat64() * float64(a.Poisson.Duration)))
			out = append(out, t)
		}
	default:
		for i := 0; i < n; i++ {
			out = append(out, 0)
		}
	}
	return out
}

func start(a scenarios.Arrival) time.Duration {
	if a.Start == nil {
		return 0
	}
	return a.Start.Duration
}

// drawDuration draws one run time, rounded to the millisecond (at least
// 1ms).
func drawDuration(d *scenarios.Distribution, rng *rand.Rand) (time.Duration, error) {
	if d == nil {
		return 0, nil
	}
	var v float64
	switch {
	case d.Fixed != nil:
		v = float64(d.Fixed.Duration)
	case d.Exponential != nil:
		v = rng.ExpFloat64() * float64(d.Exponential.Duration)
	case d.LogNormal != nil:
		v = float64(d.LogNormal.Median.Duration) * math.Exp(d.LogNormal.Sigma*rng.NormFloat64())
	case len(d.Empirical) > 0:
		v = float64(d.Empirical[rng.IntN(len(d.Empirical))].Duration)
	default:
		return 0, fmt.Errorf("duration gives no distribution")
	}
	return max(roundTick(time.Duration(math.Min(v, float64(scenarios.MaxSimulatedTime)*float64(time.Second)))), tick), nil
}

// tick is the resolution of simulated time: arrival times and durations
// are rounded to it. The engine gives the arrivals of one instant
// nanosecond offsets below it (see QueueOrder).
const tick = time.Millisecond

func roundTick(d time.Duration) time.Duration { return d.Round(tick) }
