package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

func TestRunLoad(t *testing.T) {
	at := func(d time.Duration) record.Event { return record.Event{T: record.Duration(d)} }
	r := &record.Run{Workloads: []*record.Workload{
		{Arrived: 0, Admissions: []record.Event{at(time.Second)}},
		{Arrived: time.Second, Admissions: []record.Event{at(4 * time.Second), at(9 * time.Second)}, Preemptions: []record.Event{at(5 * time.Second)}},
		{Arrived: 2 * time.Second, Admissions: []record.Event{at(2 * time.Second)}, Evictions: []record.Event{at(3 * time.Second)}},
		{Arrived: 3 * time.Second}, // never admitted
	}}
	got := runLoad(r)
	want := Load{Admitted: 3, WaitP50: time.Second, WaitP90: 3 * time.Second, Evictions: 2}
	if got != want {
		t.Errorf("runLoad() = %+v, want %+v", got, want)
	}
}

func TestHarnessLoad(t *testing.T) {
	for name, tc := range map[string]struct {
		csv     string
		want    Load
		wantErr string
	}{
		"rows": {
			csv: "id,class name,namespace,name,ms to admitted,ms to finish,num evictions\n" +
				"0,small,ns,a,100,300,0\n1,large,ns,b,2500,4000,2\n2,medium,ns,c,0,0,0\n3,small,ns,d,700,900,1\n",
			want: Load{Admitted: 3, WaitP50: 700 * time.Millisecond, WaitP90: 2500 * time.Millisecond, Evictions: 3},
		},
		"no columns": {csv: "id,name\n0,a\n", wantErr: `lack the columns "ms to admitted"`},
		"bad number": {csv: "ms to admitted,num evictions\nx,0\n", wantErr: ":2: ms to admitted"},
		"empty":      {csv: "", wantErr: "are empty"},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "wlStates.csv")
			if err := os.WriteFile(p, []byte(tc.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := harnessLoad(p)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("harnessLoad() error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("harnessLoad() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestQuantile(t *testing.T) {
	d := []time.Duration{5, 1, 3, 2, 4}
	if got := quantile(d, 0.5); got != 3 {
		t.Errorf("p50 = %v, want 3", got)
	}
	if got := quantile(d, 0.9); got != 5 {
		t.Errorf("p90 = %v, want 5", got)
	}
	if got := quantile(nil, 0.5); got != 0 {
		t.Errorf("p50 of none = %v, want 0", got)
	}
}
