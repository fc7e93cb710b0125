package forecast_test

import (
	"os"

	"github.com/kueue-sim/kueue-sim/forecast"
)

func ptr(v float64) *float64 { return &v }

// The forecast of a job of two 4-GPU pods submitted at 30m beside a
// running 4-GPU job: as written it waits until that job ends; at 2 GPUs a
// pod it fits at once.
func ExampleWriteText() {
	f := &forecast.Forecast{
		Jobs:         []forecast.JobInfo{{File: "job.yaml", Kind: "Job", Workload: "research/forecast-0"}},
		Scenario:     "scenario.yaml",
		KueueVersion: "v0.19.2",
		AtSeconds:    1800,
		Alternatives: []forecast.Alternative{
			{
				Name: "as written",
				Jobs: []forecast.JobForecast{{
					LocalQueue: "research/gpu",
					Workload:   "research/forecast-0",
					Summary: forecast.Summary{
						Runs: 1, Admitted: 1, P50: ptr(9001), P90: ptr(9001),
						ClusterQueue: "research", Flavors: "cpu=a100,memory=a100,nvidia.com/gpu=a100", Share: 1,
						LetInBy: []forecast.Count{{Workload: "research/train-0", Runs: 1}},
					},
				}},
			},
			{
				Name: "nvidia.com/gpu=2",
				Jobs: []forecast.JobForecast{{
					LocalQueue: "research/gpu",
					Workload:   "research/forecast-0",
					Summary: forecast.Summary{
						Runs: 1, Admitted: 1, AtOnce: 1, P50: ptr(0), P90: ptr(0),
						ClusterQueue: "research", Flavors: "cpu=a100,memory=a100,nvidia.com/gpu=a100", Share: 1,
					},
				}},
			},
		},
	}
	if err := forecast.WriteText(os.Stdout, f); err != nil {
		panic(err)
	}
	// Output:
	// forecast of Job research/forecast-0 (job.yaml), submitted at 30m0s of scenario.yaml, on Kueue v0.19.2 (1 run: the scenario draws nothing at random, so every seed replays the same)
	//
	// JOB               LOCALQUEUE    ADMITTED AT ONCE  P50 WAIT  P90 WAIT  CLUSTERQUEUE  FLAVORS
	// as written        research/gpu  0% (0/1)          2h30m1s   2h30m1s   research      cpu=a100,memory=a100,nvidia.com/gpu=a100
	// nvidia.com/gpu=2  research/gpu  100% (1/1)        0s        0s        research      cpu=a100,memory=a100,nvidia.com/gpu=a100
	//
	// as written:
	//   admitted after these ended or were evicted: research/train-0
}
