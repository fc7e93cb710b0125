package bench

import (
	"strings"
	"testing"
)

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
