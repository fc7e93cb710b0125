package upgrade

// Finding is something the new release reads differently in the user's own
// configuration: a feature gate whose default flipped, a default that
// changed, a field the new release refuses. The caller finds them (it
// knows both releases' configuration APIs); the report carries and shows
// them first, because they explain most of the differences that follow.
type Finding struct {
	// Kind classifies the finding, e.g. FeatureGateDefault, Default or
	// Refused.
	Kind string `json:"kind"`
	// Name is what changed, e.g. a gate's name or waitForPodsReady.
	Name string `json:"name"`
	// From and To are the value under each release, e.g. "false",
	// "true", "absent".
	From string `json:"from"`
	To   string `json:"to"`
	// Detail says in one sentence what it changes and how to pin it.
	Detail string `json:"detail"`
}
