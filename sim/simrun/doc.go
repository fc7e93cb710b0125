// Package simrun runs kueue-sim's own subcommands as child processes.
//
// A process runs one Kueue: its controllers, feature gates and metrics are
// process globals, and a release is a build of its own. What replays a
// scenario several times, or on another release, therefore runs `sim run`
// once per replay, each with a control plane of its own: `sim plan` per
// combination, `sim forecast` per seed, `sim upgrade` per side. This
// package is how they start, stop and read such a child, so that all of
// them stop it alike when they are stopped.
package simrun
