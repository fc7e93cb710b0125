package scenarios

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// worstCases are inputs just within MaxFileSize built to make the loader
// work hardest: the most nodes, the most problems, the largest alias
// expansion allowed, the deepest nesting allowed.
func worstCases() map[string]string {
	fill := func(prefix, unit, suffix string) string {
		n := (MaxFileSize - len(prefix) - len(suffix)) / len(unit)
		return prefix + strings.Repeat(unit, n) + suffix
	}
	anchored := strings.Repeat("x", MaxExpandedSize/250)
	at := "[" + strings.Repeat("-1s,", MaxStreamCount-1) + "0s]"
	times := "apiVersion: kueue-sim/v1alpha1\nkind: Scenario\nworkloads:\n- {name: a, arrival: {at: " + at + "}}\n- {name: b, arrival: {at: " + at + "}}\n"
	streams := "apiVersion: kueue-sim/v1alpha1\nkind: Scenario\nworkloads:\n" +
		strings.Repeat("- {name: Bad_Name, team: t, kind: K, count: 0, replicas: 0, requests: {gpu: -1}}\n", MaxListItems)
	return map[string]string{
		"a list just under the value limit": "description: [" + strings.Repeat("0,", MaxNodes-10) + "0]\n",
		"empty list items":                  fill("teams:\n", "-\n", ""),
		"unknown fields":                    "cluster: {" + keys(min(MaxNodes/2-10, MaxFileSize/12)) + "}\n",
		"problems in every stream":          streams,
		"streams with one name":             strings.ReplaceAll(streams, "Bad_Name", "same"),
		"aliases just under the expansion limit": "x: &x \"" + anchored + "\"\ndescription: [" +
			strings.TrimSuffix(strings.Repeat("*x, ", 240), ", ") + "]\n",
		"nesting at the depth limit": fill("description: [", strings.Repeat("[", MaxDepth-2)+"0"+strings.Repeat("]", MaxDepth-2)+",", "0]\n"),
		"arrival times, all wrong":   times,
		"long lines":                 "description: \"" + strings.Repeat("y", MaxFileSize-20) + "\"\n",
		"changes applying one folder again and again": "apiVersion: kueue-sim/v1alpha1\nkind: Scenario\nchanges:\n" +
			strings.Repeat("- {at: -1s, apply: [testdata/manifests/], delete: [{kind: Pod}]}\n", MaxListItems),
	}
}

// TestLoadWorstCases checks that the worst inputs within MaxFileSize load
// in bounded time and memory.
func TestLoadWorstCases(t *testing.T) {
	if testing.Short() {
		t.Skip("loads megabytes of YAML")
	}
	if raceDetector {
		t.Skip("the race detector multiplies allocations and time: the bounds are for a plain build")
	}
	const (
		maxAlloc = 512 << 20        // bytes allocated in all, an upper bound on the peak
		maxTime  = 30 * time.Second // a hang detector: about 1s each on an idle machine
	)
	for name, input := range worstCases() {
		t.Run(name, func(t *testing.T) {
			if len(input) > MaxFileSize {
				t.Fatalf("the input is %d bytes, over MaxFileSize", len(input))
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Load("worst.yaml", "worst", []byte(input))
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d bytes: %s, %d MiB allocated; %v", len(input), took.Round(time.Millisecond), alloc>>20, firstLine(err))
			if took > maxTime {
				t.Errorf("Load took %s, want under %s", took, maxTime)
			}
			if alloc > maxAlloc {
				t.Errorf("Load allocated %d MiB, want under %d MiB", alloc>>20, maxAlloc>>20)
			}
			if err != nil && !IsInvalid(err) {
				t.Errorf("Load = %v, want nil or an *Error", err)
			}
		})
	}
}

// keys are n distinct keys, k0: 0, k1: 0, ...
func keys(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("k" + strconv.Itoa(i) + ": 0")
	}
	return b.String()
}

func firstLine(err error) string {
	if err == nil {
		return "valid"
	}
	msg := err.Error()
	if i := strings.Index(msg, "\n"); i >= 0 {
		if j := strings.Index(msg[i+1:], "\n"); j >= 0 {
			return msg[:i+1+j]
		}
	}
	return msg
}
