// Package compare is kueue-sim's CI gate: it compares the metrics of a
// baseline run's report with a new run's, rule by rule, and says which
// moved and which moved too far.
//
// A rule (from a thresholds file, or built in) bounds a metric's
// regression — its change in the worse direction — relative to the
// baseline (maxRegression: 0.1 is 10 %) with an absolute slack below which
// any change passes, and may bound the new value absolutely (min, max).
// Rules carry their rationale (why), shown with a breach, as limits in a
// performance harness should. The golden mode compares two decision traces
// (decisions.jsonl) byte for byte instead: strict pacing makes them
// reproducible, so any difference is a change in what Kueue decided.
package compare
