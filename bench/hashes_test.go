package bench

import (
	"fmt"
	"strings"
	"testing"
)

// hashes are decisions.jsonl hashes by scenario and size.
type hashes map[string]string

// check records hash for key, or says how it differs from the one recorded.
func (h hashes) check(key, hash string) error {
	if was, ok := h[key]; ok && was != hash {
		return fmt.Errorf("%s: decisions.jsonl %.12s differs from an earlier run's %.12s: the replay is not deterministic (rerun with KUEUESIM_BENCH_EVENTS_DIR set and compare the event logs)", key, hash, was)
	}
	h[key] = hash
	return nil
}

func TestHashesCheck(t *testing.T) {
	h := hashes{}
	if err := h.check("kueue-baseline/1000", "aaaa"); err != nil {
		t.Fatalf("first run: %v", err)
	}
	if err := h.check("kueue-baseline/1000", "aaaa"); err != nil {
		t.Errorf("same decisions: %v", err)
	}
	if err := h.check("kueue-baseline/5000", "bbbb"); err != nil {
		t.Errorf("another size: %v", err)
	}
	if err := h.check("kueue-baseline/1000", "cccc"); err == nil || !strings.Contains(err.Error(), "not deterministic") {
		t.Errorf("other decisions: error %v, want one saying the replay is not deterministic", err)
	}
}
