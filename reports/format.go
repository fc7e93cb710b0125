package reports

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Dur formats simulated seconds as a duration rounded to the second.
func Dur(seconds float64) string {
	return time.Duration(seconds * float64(time.Second)).Round(time.Second).String()
}

// Pct formats a fraction as a percentage with one decimal.
func Pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// Amount formats a resource amount compactly: integers as such, others
// with up to two decimals; memory in GiB.
func Amount(resource string, v float64) string {
	if resource == "memory" || resource == "ephemeral-storage" {
		return trim(v/(1<<30)) + "Gi"
	}
	return trim(v)
}

func trim(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// scope names a WaitStats group.
func scope(w WaitStats) string {
	switch {
	case w.Team != "":
		return "team " + w.Team
	case w.Kind != "":
		return "kind " + w.Kind
	}
	return "all workloads"
}

// mdEscape keeps a cell's text from breaking a Markdown table.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// passedCount counts passed expectations.
func (r *Report) passedCount() int {
	n := 0
	for _, e := range r.Expectations {
		if e.Passed {
			n++
		}
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
