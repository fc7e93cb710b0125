#!/usr/bin/env bash
# Lists the packages `make unit` tests: every package of the module whose
# tests need no control plane. The rule is the layout's: a package whose
# tests start a control plane (envtest, kwok, kind) does so in TestMain, so
# the unit tier is every package without a TestMain in its _test.go files.
# Keep pure tests out of such packages (sim/metrics, sim/record, sim/expect,
# reports, scenarios, ... hold none), or they run only under `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
	if ! grep -qs '^func TestMain(' "$dir"/*_test.go; then
		echo "$pkg"
	fi
done
