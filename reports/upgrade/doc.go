// Package upgrade reports an upgrade rehearsal: the same scenario, with
// the same seed, replayed on two Kueue releases, so that a platform team
// sees what a new release changes for its own workloads before the
// release touches a cluster.
//
// `sim upgrade SCENARIO --from v0.17.1 --to v0.19.2 --report DIR` replays
// the scenario on each release into an ordinary report folder, DIR/from
// and DIR/to, then hands both folders to Build with the findings it made
// in the configuration. Build reads each folder's event log and report,
// and the Report it returns answers three questions, in this order:
//
//   - What does the new release read differently in this configuration?
//     The caller's Findings: a feature gate whose default flipped, a
//     default that changed, a field the new release refuses. They come
//     first because they explain most of what follows.
//
//   - Which workloads does it decide differently? Stories tells each
//     workload's story in one run (arrival, admissions with their
//     ClusterQueue and flavors, preemptions and evictions with Kueue's
//     reasons, finish, refusal, still pending at the end), and
//     DiffWorkloads sets the two runs' stories side by side. Each
//     difference becomes a Change a person can read, such as "admitted
//     35m later (waited 1h5m vs 30m)", "flavor nvidia.com/gpu: a100 ->
//     h100" or "evicted (PodsReadyTimeout) under v0.19.2 only". A
//     difference that explains the others stands alone: a workload never
//     admitted under one release lists that, not the preemptions it
//     therefore never had.
//
//   - Do the metrics still meet their thresholds? Package compare judges
//     the new run's metrics against the old run's, rule by rule, as the CI
//     gate does.
//
// Only a breached threshold fails the rehearsal (Breached, and the failed
// test cases of junit.xml). Decisions that differ are what an upgrade is
// expected to bring: the report lists them for review and never fails on
// them.
//
// WriteFiles writes upgrade.md, upgrade.json, upgrade.html and junit.xml;
// WriteText writes the short summary the command prints. The pages, the
// JSON and the summary have the same four sections: configuration,
// decisions that differ, metrics side by side, verdict; junit.xml carries
// the verdict alone. The Markdown and HTML pages list the first 200
// workloads that differ; upgrade.json lists them all. The same two runs
// give the same bytes: everything is sorted and no wall-clock time is
// written.
package upgrade
