package engine

import (
	"errors"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// A run without an end ends at its last observation: a later step that
// recorded only a warning does not stretch the span; a scenario's end and
// an interrupted run's clock do.
func TestSpanEndIsTheLastObservation(t *testing.T) {
	at := func(s int) record.Duration { return record.Duration(time.Duration(s) * time.Second) }
	for _, tc := range []struct {
		name   string
		end    *time.Duration
		runErr error
		want   time.Duration
	}{
		{name: "no end", want: 5402 * time.Second},
		{name: "scenario end", end: ptr.To(2 * time.Hour), want: 2 * time.Hour},
		{name: "interrupted", runErr: errors.New("stopped"), want: 5403 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &scenarios.Scenario{}
			if tc.end != nil {
				s.End = &metav1.Duration{Duration: *tc.end}
			}
			c := &VirtualClock{}
			r := &Runner{s: s, clock: c}
			if err := r.write([]record.Event{
				{T: at(3602), Type: record.TypeAdmitted},
				{T: at(5402), Type: record.TypeFinished},
			}); err != nil {
				t.Fatal(err)
			}
			c.Set(5403 * time.Second)
			if err := r.write([]record.Event{{T: at(5403), Type: record.TypeWarning, Reason: "NotSettled"}}); err != nil {
				t.Fatal(err)
			}
			if tc.end != nil {
				c.Set(*tc.end)
			}
			if got := r.spanEnd(tc.runErr); got != tc.want {
				t.Errorf("spanEnd = %v, want %v", got, tc.want)
			}
		})
	}
}
