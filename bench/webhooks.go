package bench

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// WebhookCost is the time kube-apiserver spent in one admission webhook:
// the calls it made and the seconds it waited for their answers. Every
// write to a Workload, Kueue's own status patches included, passes
// Kueue's validating webhook, served by the `sim` process; a patch Kueue's
// scheduler makes waits for it before the next cycle can start. Kueue's
// harness (minimalkueue) runs no webhooks, so this is time kueue-sim
// spends and the harness does not.
type WebhookCost struct {
	Calls   int64
	Seconds float64
}

const webhookDuration = "apiserver_admission_webhook_admission_duration_seconds"

var webhookName = regexp.MustCompile(`[{,]name="([^"]*)"`)

// webhookCosts reads each admission webhook's calls and seconds from
// kube-apiserver's metrics (the _count and _sum of its admission duration
// histogram, over operations and results).
func webhookCosts(metrics []byte) (map[string]WebhookCost, error) {
	by := map[string]WebhookCost{}
	err := eachSample(metrics, []string{webhookDuration + "_sum{", webhookDuration + "_count{"}, func(line string, v float64) {
		m := webhookName.FindStringSubmatch(line)
		if m == nil {
			return
		}
		c := by[m[1]]
		if strings.HasPrefix(line, webhookDuration+"_sum{") {
			c.Seconds += v
		} else {
			c.Calls += int64(v)
		}
		by[m[1]] = c
	})
	if err != nil {
		return nil, err
	}
	return by, nil
}

// webhooksSince is the webhooks' cost between two readings.
func webhooksSince(before, after map[string]WebhookCost) map[string]WebhookCost {
	d := map[string]WebhookCost{}
	for name, a := range after {
		b := before[name]
		if c := (WebhookCost{Calls: a.Calls - b.Calls, Seconds: a.Seconds - b.Seconds}); c.Calls > 0 {
			d[name] = c
		}
	}
	return d
}

// formatWebhooks prints the costliest webhooks first, e.g.
// "vworkload.kb.io 12345 calls 41.2 s".
func formatWebhooks(by map[string]WebhookCost) string {
	if len(by) == 0 {
		return "none"
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if by[names[i]].Seconds != by[names[j]].Seconds {
			return by[names[i]].Seconds > by[names[j]].Seconds
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d calls %.1f s", n, by[n].Calls, by[n].Seconds)
	}
	return strings.Join(parts, ", ")
}
