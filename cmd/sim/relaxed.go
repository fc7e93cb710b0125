package main

import "github.com/spf13/pflag"

// addRelaxedFlag keeps --relaxed working for scripts written before it
// went. Relaxed pacing settled on informer events and let Kueue break ties
// by wall-clock timing: no faster than strict pacing once Kueue read the
// virtual clock, and not reproducible. What it also did, deleting finished
// workloads, is --prune-finished now, which the flag turns on. Cobra hides
// the flag and says so on stderr when it is used.
func addRelaxedFlag(fl *pflag.FlagSet, prune *bool) {
	fl.BoolVar(prune, "relaxed", false, "deprecated: use --prune-finished")
	_ = fl.MarkDeprecated("relaxed", "pacing is always strict now (as fast, and reproducible); --relaxed means --prune-finished, which keeps the memory it saved")
}
