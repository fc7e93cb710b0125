package scenarios

import (
	"strings"
	"testing"
	"time"
)

func TestRequiredNodeAffinityAndDurations(t *testing.T) {
	ok := edit(t, "  duration: {fixed: 25m}\n",
		"  arrival: {at: [0s, 10m]}\n  durations: [5m, 90s]\n"+
			"  requiredNodeAffinity: [{key: nvidia.com/gpu.product, operator: In, values: [A100, H100]}]\n")
	s, err := Load("ok.yaml", "ok", []byte(ok))
	if err != nil {
		t.Fatalf("valid scenario refused: %v", err)
	}
	w := s.Workloads[0]
	if len(w.Durations) != 2 || w.Durations[1].Duration != 90*time.Second {
		t.Errorf("durations = %v", w.Durations)
	}
	if len(w.RequiredNodeAffinity) != 1 || w.RequiredNodeAffinity[0].Values[1] != "H100" {
		t.Errorf("affinity = %v", w.RequiredNodeAffinity)
	}

	cases := map[string]struct {
		yaml string
		want []string
	}{
		"bad affinity": {edit(t, "  duration: {fixed: 25m}\n", "  duration: {fixed: 25m}\n"+
			"  requiredNodeAffinity: [{key: \"bad key!\", operator: In}, {key: a, operator: Near, values: [b]}, {key: a, operator: Gt, values: [x]}, {key: a, operator: Exists, values: [b]}]\n"),
			[]string{"requiredNodeAffinity[0].key", "requiredNodeAffinity[0].values: Required", "requiredNodeAffinity[1].operator: Unsupported", "requiredNodeAffinity[2].values[0]", "requiredNodeAffinity[3].values: Forbidden"}},
		"durations and duration": {edit(t, "  duration: {fixed: 25m}\n", "  duration: {fixed: 25m}\n  durations: [1m]\n"),
			[]string{"durations: Forbidden"}},
		"durations count": {edit(t, "  duration: {fixed: 25m}\n", "  count: 3\n  durations: [1m, 0s]\n"),
			[]string{"lists 2 durations but the stream has 3", "durations[1]: Invalid value"}},
	}
	for name, c := range cases {
		_, err := Load("bad.yaml", "bad", []byte(c.yaml))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error lacks %q:\n%v", name, w, err)
			}
		}
	}
}
