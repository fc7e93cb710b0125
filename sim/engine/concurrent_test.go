package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestParallel(t *testing.T) {
	var running, peak, done atomic.Int32
	calls := make([]call, 50)
	for i := range calls {
		calls[i] = call{do: func(context.Context) error {
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			running.Add(-1)
			done.Add(1)
			return nil
		}}
	}
	if err := errors.Join(parallel(context.Background(), 4, calls)...); err != nil {
		t.Fatal(err)
	}
	if done.Load() != 50 || peak.Load() > 4 {
		t.Errorf("ran %d calls, at most %d at once; want 50, at most 4", done.Load(), peak.Load())
	}
	boom := errors.New("boom")
	errs := parallel(context.Background(), 2, []call{
		{do: func(context.Context) error { return boom }},
		{do: func(ctx context.Context) error { return nil }},
	})
	if !errors.Is(errs[0], boom) {
		t.Errorf("errors = %v, want boom first", errs)
	}
}
