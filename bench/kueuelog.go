package bench

import (
	"io"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	ctrl "sigs.k8s.io/controller-runtime"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// Two replays of one scenario that write different decisions took
// different paths through Kueue. Kueue's own logs at V(2) name every
// head its scheduler tried in a cycle, how each ended (assumed,
// re-queued and why) and every Workload update its controller saw; with
// each line stamped in simulated time, two runs' logs can be compared
// instant by instant to find the first cycle that differs.

// logKueue sends every in-process controller's log lines (Kueue's among
// them) at verbosity up to v to w as JSON, stamped with c's simulated time
// (seconds since engine.Epoch, field "sim").
func logKueue(w io.Writer, v int, c *engine.VirtualClock) {
	stamp := func(o *zapcore.EncoderConfig) {
		o.TimeKey = "sim"
		o.EncodeTime = func(t time.Time, enc zapcore.PrimitiveArrayEncoder) {
			enc.AppendFloat64(t.Sub(engine.Epoch).Seconds())
		}
	}
	ctrl.SetLogger(crzap.New(crzap.WriteTo(w), crzap.JSONEncoder(stamp),
		crzap.Level(zapcore.Level(-v)), crzap.RawZapOpts(zap.WithClock(simClock{c}))))
}

// simClock is zap's clock reading simulated time.
type simClock struct{ c *engine.VirtualClock }

func (s simClock) Now() time.Time                         { return s.c.Now() }
func (s simClock) NewTicker(d time.Duration) *time.Ticker { return time.NewTicker(d) }
