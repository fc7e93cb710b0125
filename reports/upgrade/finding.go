package upgrade

import "github.com/kueue-sim/kueue-sim/kueuerelease"

// Finding is something the new release reads differently in the user's
// own configuration: a feature gate whose default flipped, one added or
// gone, a default that changed (kueuerelease.Changes, from what each
// release's sim reports). The report shows them first, because they
// explain most of the differences that follow.
type Finding = kueuerelease.Change
