// Package rehearsal rehearses a Kueue upgrade: it replays one scenario on
// two Kueue releases and builds the upgrade report of reports/upgrade from
// the two runs.
//
// A process holds one Kueue, so each release runs in the sim binary built
// around it (this one, or sim-kueue-<release> beside it; see
// assets.KueueRelease), one after the other: two control planes at once
// would compete for the machine and gain nothing, since each run is
// deterministic on its own. Each binary also reports its own Kueue's
// feature gates and defaults (sim kueue-defaults), read from that Kueue's
// code, so the configuration findings are the releases' own word, never
// a table kept here.
package rehearsal
