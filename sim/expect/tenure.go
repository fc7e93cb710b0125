package expect

import (
	"fmt"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// tenure is one admission of a workload and the span it held it: from the
// admission to the next preemption, eviction, finish or deletion at or
// after it, or open (to nil) until the run ended. Each end closes one
// admission, so a workload preempted and admitted again at one instant
// holds its second admission from that instant.
type tenure struct {
	admission record.Event
	// n is the admission's place, 1 the first.
	n  int
	to *time.Duration
}

func tenures(w *record.Workload) []tenure {
	var out []tenure
	for i, t := range w.Tenures() {
		out = append(out, tenure{admission: t.Admission, n: i + 1, to: t.End})
	}
	return out
}

// at is when the admission happened.
func (t tenure) at() time.Duration { return t.admission.T.D() }

// heldAt tells whether the workload held this admission once instant t
// settled.
func (t tenure) heldAt(at time.Duration) bool {
	return t.at() <= at && (t.to == nil || *t.to > at)
}

// describe is "was admitted at 1m0s (2nd admission)".
func (t tenure) describe() string {
	return fmt.Sprintf("was admitted at %s (%s admission)", t.at(), ordinal(t.n))
}

// flavors are the flavors of the admission per resource: the Flavors the
// log recorded, or those its Usage names.
func (t tenure) flavors() map[string]string {
	if len(t.admission.Flavors) > 0 {
		return t.admission.Flavors
	}
	out := map[string]string{}
	for flavor, res := range t.admission.Usage {
		for r := range res {
			out[r] = flavor
		}
	}
	return out
}

// ordinal is 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// times is "1 time", "2 times".
func times(n int) string {
	if n == 1 {
		return "1 time"
	}
	return fmt.Sprintf("%d times", n)
}
