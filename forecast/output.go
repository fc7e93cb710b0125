package forecast

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteJSON writes f as indented JSON.
func WriteJSON(w io.Writer, f *Forecast) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// WriteText writes f for a reader: what was forecast, then per job one
// row per alternative, then what let the job in and whom it preempted. A
// forecast of several jobs has a block per job, in the order submitted.
func WriteText(w io.Writer, f *Forecast) error {
	at := time.Duration(math.Round(f.AtSeconds*1e3)) * time.Millisecond // simulated time has millisecond resolution
	runs := "1 run: the scenario draws nothing at random, so every seed replays the same"
	if f.Random && len(f.Alternatives) > 0 && len(f.Alternatives[0].Jobs) > 0 {
		runs = fmt.Sprintf("%d runs, one per seed", f.Alternatives[0].Jobs[0].Summary.Runs)
	}
	if len(f.Jobs) == 1 {
		j := f.Jobs[0]
		fmt.Fprintf(w, "forecast of %s %s (%s), submitted at %s of %s, on Kueue %s (%s)\n\n",
			j.Kind, j.Workload, j.Where(), at, f.Scenario, f.KueueVersion, runs)
		return writeBlock(w, f, 0)
	}
	fmt.Fprintf(w, "forecast of %d jobs, submitted in this order at %s of %s, on Kueue %s (%s)\n",
		len(f.Jobs), at, f.Scenario, f.KueueVersion, runs)
	for i, j := range f.Jobs {
		fmt.Fprintf(w, "\n%d. %s %s (%s)\n", i+1, j.Kind, j.Workload, j.Where())
		if err := writeBlock(w, f, i); err != nil {
			return err
		}
	}
	return nil
}

// writeBlock writes the forecast of job i: a row per alternative, then
// what let it in, whom it preempted, and why it was not admitted.
func writeBlock(w io.Writer, f *Forecast, i int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tLOCALQUEUE\tADMITTED AT ONCE\tP50 WAIT\tP90 WAIT\tCLUSTERQUEUE\tFLAVORS")
	for _, a := range f.Alternatives {
		jf := a.Jobs[i]
		s := jf.Summary
		cq, fl := s.ClusterQueue, s.Flavors
		if cq == "" {
			cq, fl = "-", "-"
		} else if s.Share < s.Runs {
			cq = fmt.Sprintf("%s (%d/%d runs)", cq, s.Share, s.Runs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.Name, jf.LocalQueue,
			fmt.Sprintf("%d%% (%d/%d)", 100*s.AtOnce/max(s.Runs, 1), s.AtOnce, s.Runs), wait(s.P50), wait(s.P90), cq, fl)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, a := range f.Alternatives {
		s := a.Jobs[i].Summary
		var lines []string
		if len(s.LetInBy) > 0 {
			lines = append(lines, "  admitted after these ended or were evicted: "+countList(s.LetInBy, s.Runs))
		}
		if len(s.Preempted) > 0 {
			lines = append(lines, "  preempted for it: "+countList(s.Preempted, s.Runs))
		}
		if s.Admitted < s.Runs {
			why := s.Pending
			if s.Refused != "" {
				why = "refused: " + s.Refused
			}
			if why == "" {
				why = "no reason recorded"
			}
			lines = append(lines, fmt.Sprintf("  not admitted within the horizon in %d of %d runs; Kueue's last word: %s", s.Runs-s.Admitted, s.Runs, why))
		}
		if len(lines) > 0 {
			fmt.Fprintf(w, "\n%s:\n%s\n", a.Name, strings.Join(lines, "\n"))
		}
	}
	return nil
}

func wait(s *float64) string {
	if s == nil {
		return "beyond horizon"
	}
	return time.Duration(*s * float64(time.Second)).String()
}

func countList(cs []Count, runs int) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Workload
		if runs > 1 {
			parts[i] += fmt.Sprintf(" (%d/%d runs)", c.Runs, runs)
		}
	}
	return strings.Join(parts, ", ")
}
