package reports

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kueue-sim/kueue-sim/sim/metrics"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Why explains one thing that happened to a workload that did not simply
// run: it was refused, preempted, evicted, or was still waiting at the end.
type Why struct {
	Workload string `json:"workload"`
	Team     string `json:"team"`
	Kind     string `json:"kind"`
	// State is refused, preempted, evicted or pending (at the end).
	State     string  `json:"state"`
	AtSeconds float64 `json:"atSeconds"`
	// Explanation is Kueue's (or the webhook's) reason in plain words.
	Explanation string `json:"explanation"`
	// Reason and Message are what Kueue or the API server recorded.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// Why states.
const (
	StateRefused   = "refused"
	StatePreempted = "preempted"
	StateEvicted   = "evicted"
	StatePending   = "pending"
)

func why(run *record.Run) []Why {
	out := []Why{}
	for _, w := range run.Workloads {
		base := Why{Workload: w.Name, Team: w.Team, Kind: w.Kind}
		if w.Refused != nil {
			y := base
			y.State, y.AtSeconds, y.Message = StateRefused, w.Refused.T.D().Seconds(), w.Refused.Message
			y.Explanation = "refused by an admission webhook when it was created: " + w.Refused.Message
			out = append(out, y)
			continue
		}
		for _, e := range w.Preemptions {
			y := base
			y.State, y.AtSeconds, y.Reason, y.Message = StatePreempted, e.T.D().Seconds(), e.Reason, e.Message
			y.Explanation = explainPreemption(w, e)
			out = append(out, y)
		}
		for _, e := range w.Evictions {
			y := base
			y.State, y.AtSeconds, y.Reason, y.Message = StateEvicted, e.T.D().Seconds(), e.Reason, e.Message
			y.Explanation = "evicted: " + reasonMeaning(e.Reason)
			out = append(out, y)
		}
		if metrics.PendingAtEnd(w) {
			y := base
			y.State, y.AtSeconds = StatePending, run.End.Seconds()
			if p := w.LastPending; p != nil {
				y.Reason, y.Message = p.Reason, p.Message
				y.Explanation = explainPending(p.Message)
			} else {
				y.Explanation = "no reason recorded: Kueue had not reported on it when the run ended"
			}
			out = append(out, y)
		}
	}
	return out
}

var preemptorPath = regexp.MustCompile(`preemptor path: (\S+?);`)

// explainPreemption says who preempted w and why, from Kueue's reason and
// the ClusterQueue paths in its message.
func explainPreemption(w *record.Workload, e record.Event) string {
	by := ""
	if m := preemptorPath.FindStringSubmatch(e.Message); m != nil {
		parts := strings.Split(strings.Trim(m[1], "/"), "/")
		by = parts[len(parts)-1]
	}
	own := w.ClusterQueue
	switch e.Reason {
	case "InClusterQueue":
		return fmt.Sprintf("preempted by a higher-priority workload in its own ClusterQueue %s", own)
	case "InCohortReclamation":
		return fmt.Sprintf("preempted because ClusterQueue %s reclaimed its nominal quota, which %s was borrowing", orSomeone(by), own)
	case "InCohortFairSharing":
		return fmt.Sprintf("preempted by fair sharing: ClusterQueue %s was below its fair share of the cohort and %s above", orSomeone(by), own)
	case "InCohortReclaimWhileBorrowing":
		return fmt.Sprintf("preempted by a higher-priority workload of ClusterQueue %s, which may preempt while borrowing", orSomeone(by))
	}
	return "preempted: " + reasonMeaning(e.Reason)
}

func orSomeone(cq string) string {
	if cq == "" || cq == "UNKNOWN" {
		return "(another)"
	}
	return cq
}

// reasonMeaning is a preemption or eviction reason in plain words.
func reasonMeaning(reason string) string {
	switch reason {
	case "InClusterQueue":
		return "a higher-priority workload of the same ClusterQueue needed the quota"
	case "InCohortReclamation":
		return "another ClusterQueue of the cohort took back nominal quota that was lent"
	case "InCohortFairSharing":
		return "fair sharing moved quota to a ClusterQueue below its fair share"
	case "InCohortReclaimWhileBorrowing":
		return "a higher-priority workload of a borrowing ClusterQueue needed the quota"
	case "PodsReadyTimeout":
		return "its pods were not ready within waitForPodsReady's timeout"
	case "AdmissionCheck":
		return "an admission check was rejected or asked for a retry"
	case "ClusterQueueStopped":
		return "its ClusterQueue was stopped (stopPolicy)"
	case "LocalQueueStopped":
		return "its LocalQueue was stopped (stopPolicy)"
	case "NodeFailures":
		return "a node it ran on failed"
	case "InactiveWorkload", "Deactivated":
		return "the workload was deactivated"
	case "":
		return "no reason recorded"
	}
	return "Kueue's reason " + reason
}

// pendingPhrases turn the parts of Kueue's inadmissible messages into
// plain words; each pattern's groups fill its format.
var pendingPhrases = []struct {
	re     *regexp.Regexp
	format string
}{
	{regexp.MustCompile(`insufficient unused quota for (\S+) in flavor (\S+), (\S+) more needed`),
		"its ClusterQueue (with what it may borrow) lacks %[3]s %[1]s of flavor %[2]s right now; it waits for running workloads to end"},
	{regexp.MustCompile(`insufficient quota for (\S+) in flavor (\S+), previously considered podsets requests \((.*?)\) \+ current podset request \((.*?)\) > maximum capacity \((.*?)\)`),
		"it asks for more %[1]s of flavor %[2]s (%[4]s) than its ClusterQueue can ever have, borrowing included (%[5]s): it cannot be admitted as configured"},
	{regexp.MustCompile(`untolerated taint (.+?) in flavor (\S+)`),
		"flavor %[2]s's nodes carry the taint %[1]s, which the workload does not tolerate"},
	{regexp.MustCompile(`flavor (\S+) doesn't match node affinity`),
		"the workload's node selector or affinity rules out flavor %[1]s"},
	{regexp.MustCompile(`flavor (\S+) not found`),
		"ResourceFlavor %[1]s does not exist"},
	{regexp.MustCompile(`Pending the preemption of (\d+) workload\(s\)`),
		"Kueue is preempting %[1]s workload(s) to make room for it"},
	{regexp.MustCompile(`Workload no longer fits after processing another workload`),
		"another workload took the free quota first in the same scheduling cycle; Kueue tries again"},
	{regexp.MustCompile(`LocalQueue (\S+) doesn't exist`),
		"its LocalQueue %[1]s does not exist in its namespace"},
	{regexp.MustCompile(`LocalQueue (\S+) is inactive`),
		"its LocalQueue %[1]s is inactive (stopped, or its ClusterQueue is missing)"},
	{regexp.MustCompile(`ClusterQueue (\S+) doesn't exist`),
		"its LocalQueue points to ClusterQueue %[1]s, which does not exist"},
	{regexp.MustCompile(`ClusterQueue (\S+) is inactive`),
		"its ClusterQueue %[1]s is inactive (stopped, or a flavor or admission check it names is missing)"},
}

// explainPending turns Kueue's latest inadmissible message into plain
// words, keeping Kueue's text when no phrase is known.
func explainPending(msg string) string {
	var parts []string
	for _, p := range pendingPhrases {
		for _, m := range p.re.FindAllStringSubmatch(msg, -1) {
			args := make([]any, len(m)-1)
			for i := range args {
				args[i] = m[i+1]
			}
			parts = append(parts, fmt.Sprintf(p.format, args...))
		}
	}
	if len(parts) == 0 {
		if msg == "" {
			return "waiting for admission; Kueue gave no reason"
		}
		return fmt.Sprintf("waiting for admission; Kueue says: %q", msg)
	}
	return "waiting for admission: " + strings.Join(parts, "; ")
}
