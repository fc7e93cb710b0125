package settle

import (
	"context"
	"errors"
	"testing"
	"time"

	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
)

// goClock is a fake clock whose timers behave as Go's do since Go 1.23: a
// Reset discards a value the timer sent and nobody received. The fake
// clock's own timers keep it, and a Step that fires such a timer again
// blocks on its full channel.
type goClock struct{ *testingclock.FakeClock }

func (c goClock) NewTimer(d time.Duration) clock.Timer { return goTimer{c.FakeClock.NewTimer(d)} }

type goTimer struct{ clock.Timer }

func (t goTimer) Reset(d time.Duration) bool {
	select {
	case <-t.C():
	default:
	}
	return t.Timer.Reset(d)
}

// Wait polls on its clock's timer: on a fake clock it ends when the clock
// has moved past its polls, and not before.
func TestWaitOnAFakeClock(t *testing.T) {
	p := newPlane()
	cfg := p.config(testTimings())
	cfg.Clock = goClock{p.clock}
	s := New(cfg)
	done := make(chan Busy)
	go func() {
		busy, err := s.Wait(context.Background(), nil)
		if err != nil {
			t.Error(err)
		}
		done <- busy
	}()
	for {
		select {
		case busy := <-done:
			if !busy.IsZero() {
				t.Fatalf("wait = %q, want quiet", busy)
			}
			// The first poll comes at once, then one a Poll apart (a
			// step during the first poll is lost to its Reset).
			poll := DefaultTimings().Poll
			if least := time.Duration(DefaultTimings().Rounds) * poll; p.elapsed() < least || p.elapsed() > least+poll {
				t.Errorf("quiet after %s of the fake clock, want %s", p.elapsed(), least)
			}
			return
		default:
		}
		if p.clock.HasWaiters() {
			p.clock.Step(DefaultTimings().Poll)
		}
		time.Sleep(time.Millisecond)
	}
}

// A wait ends with its context.
func TestWaitEndsWithTheContext(t *testing.T) {
	p := newPlane()
	cfg := p.config(testTimings())
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Observe = cancel // the fake clock never fires the poll timer: only ctx can end the wait
	busy, err := New(cfg).Wait(ctx, nil)
	if !errors.Is(err, context.Canceled) || !busy.IsZero() {
		t.Errorf("wait = %q, %v; want the context's error", busy, err)
	}
}
