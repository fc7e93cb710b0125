#!/usr/bin/env bash
# The GitOps gate of examples/gitops: checks the queues in manifests/
# (optionally with one of changes/ laid over them) against the platform's
# policy, statically with `sim lint` and by replaying the recorded history
# with `sim run` (scenario.yaml's expectations).
#
#   examples/gitops/gate.sh [CHANGE]     # CHANGE: a folder of changes/, e.g. starve-nlp
#
# Environment: SIM (the sim binary, default bin/sim, else sim on PATH), OUT
# (default _output/gitops-gate). It writes OUT/NAME/ (NAME: the change, or
# baseline): scenario/ (the scenario and the manifests that were checked),
# lint.txt, report/ (sim run --report) and junit.xml.
#
# Exit status: 0 the policy holds, 1 lint found something or an expectation
# failed, 2 the scenario or a manifest is invalid (or bad usage).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
change=${1:-${CHANGE:-}}
out=${OUT:-_output/gitops-gate}
sim=${SIM:-}
if [[ -z $sim ]]; then
	if [[ -x bin/sim ]]; then sim=bin/sim; else sim=sim; fi
fi
command -v "$sim" >/dev/null || { echo "gate: $sim not found: build it (make build) or set SIM" >&2; exit 2; }

name=baseline
if [[ -n $change ]]; then
	if [[ ! -d $here/changes/$change ]]; then
		echo "gate: no change \"$change\" in $here/changes (there: $(ls "$here/changes" | tr '\n' ' '))" >&2
		exit 2
	fi
	name=$change
fi

dir=$out/$name
rm -rf "$dir"
mkdir -p "$dir/scenario"
# The scenario names its manifests relative to itself (queues.manifests:
# [manifests]), so a copy beside a copy of the manifests needs no rewriting.
cp "$here/scenario.yaml" "$dir/scenario/scenario.yaml"
cp -R "$here/manifests" "$dir/scenario/manifests"
if [[ -n $change ]]; then
	echo "gate: applying change $change:"
	(cd "$here/changes/$change" && find . -type f | sort) | while read -r f; do
		echo "  manifests/${f#./}"
	done
	cp -R "$here/changes/$change/." "$dir/scenario/manifests/"
fi
scenario=$dir/scenario/scenario.yaml

# Invalid manifests stop the gate before anything else (exit 2).
"$sim" validate "$scenario"

# Static check: what the platform's webhooks would refuse (a Notebook on a
# preemptive ClusterQueue, a hardware profile naming a missing queue, ...).
echo "gate: sim lint $scenario"
lint=0
"$sim" lint "$scenario" | tee "$dir/lint.txt" || lint=$?
if ((lint == 2)); then exit 2; fi

# Dynamic check: replay the history and judge the expectations.
echo "gate: sim run $scenario"
run=0
"$sim" run "$scenario" --report "$dir/report" --junit "$dir/junit.xml" --progress none || run=$?
if ((run == 2)); then exit 2; fi

if ((lint != 0)); then
	echo "gate: FAIL ($name): sim lint found problems ($dir/lint.txt)" >&2
fi
if ((run != 0)); then
	echo "gate: FAIL ($name): an expectation failed ($dir/report/report.md, $dir/junit.xml)" >&2
fi
if ((lint != 0 || run != 0)); then
	exit 1
fi
echo "gate: PASS ($name): no lint findings, every expectation held (report: $dir/report/report.md)"
