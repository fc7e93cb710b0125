package forecast

import (
	"sort"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Outcome is what one run says about the job: observed in its event log,
// never worked out from quotas.
type Outcome struct {
	Seed int64 `json:"seed"`
	// Admitted: Kueue admitted the job before the run ended; Wait is then
	// from its submission to its first admission, and ClusterQueue and
	// Flavors are that admission's.
	Admitted     bool              `json:"admitted"`
	Wait         time.Duration     `json:"-"`
	WaitSeconds  float64           `json:"waitSeconds"`
	ClusterQueue string            `json:"clusterQueue,omitempty"`
	Flavors      map[string]string `json:"flavors,omitempty"`
	// LetInBy are the workloads whose end or eviction in the job's
	// ClusterQueue or cohort came just before Kueue admitted it (see
	// requeueSlack); empty for a job admitted at once.
	LetInBy []string `json:"letInBy,omitempty"`
	// Preempted are the workloads Kueue preempted in the job's ClusterQueue
	// or cohort just before it admitted the job.
	Preempted []string `json:"preempted,omitempty"`
	// Pending is Kueue's last reason for not admitting it (a job never
	// admitted), and Refused the API server's refusal.
	Pending string `json:"pending,omitempty"`
	Refused string `json:"refused,omitempty"`
}

// requeueSlack is how long before a job's admission an end or a
// preemption counts as what let it in: Kueue requeues the workloads it
// set aside in batches a second apart, so a freed quota admits a waiting
// workload at the same simulated instant or a second later.
const requeueSlack = time.Second

// outcomeOf reads the outcome of workload (namespace/name) in run.
func outcomeOf(run *record.Run, workload string) Outcome {
	o := Outcome{Seed: run.Seed}
	var job *record.Workload
	for _, w := range run.Workloads {
		if w.Name == workload {
			job = w
			break
		}
	}
	if job == nil {
		o.Pending = "the run ended before the job was submitted"
		return o
	}
	if job.Refused != nil {
		o.Refused = job.Refused.Message
		return o
	}
	if !job.Admitted() {
		if job.LastPending != nil {
			o.Pending = job.LastPending.Message
		}
		return o
	}
	adm := job.Admissions[0]
	at := adm.T.D()
	o.Admitted, o.Wait, o.ClusterQueue, o.Flavors = true, at-job.Arrived, adm.ClusterQueue, adm.Flavors
	o.WaitSeconds = o.Wait.Seconds()
	just := func(t time.Duration) bool { return t <= at && t >= at-requeueSlack && t >= job.Arrived }
	near := func(cq string) bool {
		if cq == o.ClusterQueue {
			return true
		}
		c := run.Cohorts[o.ClusterQueue]
		return c != "" && run.Cohorts[cq] == c
	}
	for _, w := range run.Workloads {
		if w == job {
			continue
		}
		cq := w.ClusterQueue
		if len(w.Admissions) > 0 {
			cq = w.Admissions[len(w.Admissions)-1].ClusterQueue
		}
		if !near(cq) {
			continue
		}
		preempted := false
		for _, p := range w.Preemptions {
			if just(p.T.D()) {
				preempted = true
			}
		}
		ended := (w.Finished != nil && just(w.Finished.T.D())) || (w.Deleted != nil && just(*w.Deleted))
		for _, e := range w.Evictions {
			if just(e.T.D()) {
				ended = true
			}
		}
		switch {
		case preempted:
			o.Preempted = append(o.Preempted, w.Name)
		case ended && o.Wait > 0:
			o.LetInBy = append(o.LetInBy, w.Name)
		}
	}
	sort.Strings(o.LetInBy)
	sort.Strings(o.Preempted)
	return o
}
