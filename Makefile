# kueue-sim — see README.md.
SHELL := /usr/bin/env bash
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# Test packages run two at a time by default (each integration package starts
# its own control plane); override with GOTESTFLAGS. The timeout guards
# against a hang: cmd/sim's integration tests take about half an hour on 2
# cores beside the conformance suite.
GOTESTFLAGS ?= -count=1 -timeout 45m

.PHONY: all
all: build

## tools: build the control-plane binaries from source into the user cache (once): bin/sim tools install
.PHONY: tools
tools: build
	bin/sim tools install

## kwok: build kwok and kwokctl (sigs.k8s.io/kwok) beside the control-plane binaries (once)
.PHONY: kwok
kwok: build
	bin/sim tools install kwok kwokctl

## kwok-up: start a container-free KWOK cluster to try sim serve / sim run --kubeconfig on (kwok-down deletes it)
.PHONY: kwok-up kwok-down
kwok-up: tools kwok
	@hack/kwok-cluster.sh up
kwok-down:
	@hack/kwok-cluster.sh down

## manifests: refresh config/crd/third_party and config/kueue/<release> (committed) from their modules, after changing go.mod or the supported Kueue releases
.PHONY: manifests
manifests:
	$(GO) test ./config -run '^TestThirdPartyManifestsMatchPinnedModules$$' -count=1 -update

## build: build bin/sim
.PHONY: build
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/sim ./cmd/sim

## kueue-releases: build bin/sim-kueue-<release> for every other Kueue release kueue-sim builds against (hack/kueue/<release>.mod)
KUEUE_RELEASES ?= v0.16.2 v0.17.1 v0.18.2
kueue_tag = kueue_$(subst .,_,$(basename $(1)))
.PHONY: kueue-releases verify-kueue-releases
kueue-releases:
	$(foreach r,$(KUEUE_RELEASES),$(GO) build -modfile=hack/kueue/$(r).mod -tags $(call kueue_tag,$(r)) -ldflags "$(LDFLAGS)" -o bin/sim-kueue-$(r) ./cmd/sim &&) true

## verify-kueue-releases: vet every release's build, tests included, and run the unit tests of the release-specific wiring
verify-kueue-releases:
	$(foreach r,$(KUEUE_RELEASES),$(GO) vet -modfile=hack/kueue/$(r).mod -tags "$(call kueue_tag,$(r)) integration e2e" ./... && \
		$(GO) test -modfile=hack/kueue/$(r).mod -tags $(call kueue_tag,$(r)) -count=1 ./kueuerelease ./sim/assets ./scenarios ./sim/kueuesetup ./sim/record ./reports/... &&) true

## up: start the embedded control plane with Kueue (Ctrl-C stops it)
.PHONY: up
up: tools build
	bin/sim up

## unit: every test that needs no control plane (the files without the integration build tag); CI adds -race
.PHONY: unit
unit:
	$(GO) test $(GOTESTFLAGS) ./...

## race: replays with the race detector in sim itself (one loop owns the run's state; informer handlers only queue)
.PHONY: race
race: tools
	KUEUESIM_TEST_RACE=1 $(GO) test -race -tags integration -count=1 -timeout 20m ./cmd/sim -run 'TestSameInstantArrivalsKeepScenarioOrder|TestMultiTeamFairSharingTraceIsReproducible|TestPruneFinishedRuns|TestPodsReadyTimeoutAndBackoffRunOnSimulatedTime'

## test: unit and integration tests (build tag integration: the tests that start the real control plane)
.PHONY: test
test: tools
	$(GO) vet -tags integration ./...
	$(GO) test $(GOTESTFLAGS) -tags integration ./...

## e2e: e2e suites on container-free KWOK clusters (e2e/kwok, e2e/deploy, e2e/scenario, e2e/importcluster); e2e/kind runs where Docker and kind exist
.PHONY: e2e
e2e: tools kwok build
	$(GO) vet -tags e2e ./e2e/...
	set -o pipefail; KUEUESIM_E2E_SIM=$(CURDIR)/bin/sim $(GO) test -tags e2e -count=1 -p 1 -timeout 20m -v ./e2e/... 2>&1 | \
		grep -Ev "^=== (RUN|PAUSE|CONT)"

## gate: CI regression gate: replay GATE_SCENARIO, compare with the baseline in GATE_BASELINE (GATE_GOLDEN=1: traces too)
GATE_SCENARIO ?= scenarios/multi-team-fair-sharing.yaml
GATE_BASELINE ?= gate/baseline/multi-team-fair-sharing
GATE_THRESHOLDS ?= gate/thresholds.yaml
GATE_OUT ?= _output/gate
GATE_GOLDEN ?=
.PHONY: gate gate-baseline
gate: tools build
	rm -rf $(GATE_OUT)
	bin/sim run $(GATE_SCENARIO) --report $(GATE_OUT) --junit $(GATE_OUT)/junit.xml --progress none
	bin/sim compare $(GATE_BASELINE) $(GATE_OUT) --thresholds $(GATE_THRESHOLDS)
	$(if $(GATE_GOLDEN),bin/sim compare --golden $(GATE_BASELINE) $(GATE_OUT))

## gate-baseline: record GATE_SCENARIO's run as the gate's new baseline (commit it)
gate-baseline: tools build
	rm -rf $(GATE_BASELINE) && mkdir -p $(GATE_BASELINE)
	bin/sim run $(GATE_SCENARIO) --report $(GATE_OUT)/baseline --progress none
	cp $(GATE_OUT)/baseline/events.jsonl $(GATE_OUT)/baseline/decisions.jsonl $(GATE_OUT)/baseline/expectations.json $(GATE_BASELINE)/

## gitops-gate: the GitOps example's policy gate (examples/gitops): sim lint and replay its manifests/ (CHANGE=NAME: with examples/gitops/changes/NAME laid over them)
CHANGE ?=
GITOPS_OUT ?= _output/gitops-gate
.PHONY: gitops-gate
gitops-gate: tools build
	SIM=bin/sim OUT=$(GITOPS_OUT) examples/gitops/gate.sh $(CHANGE)

## conformance: replay the cases translated from Kueue's own integration tests (conformance/) and check Kueue's verdicts
.PHONY: conformance
conformance: tools
	set -o pipefail; $(GO) test -tags integration -count=1 -timeout 30m -v ./conformance 2>&1 | grep -Ev "^=== (RUN|PAUSE|CONT)"

## conformance-releases: the bundled scenarios, twice each, on every other Kueue release (KUEUE_RELEASES), and the whole
##        conformance suite on CONFORMANCE_RELEASES (default: the oldest, the minor the Red Hat build of Kueue ships;
##        KUEUE_RELEASES for all, about 11 min each)
CONFORMANCE_RELEASES ?= $(firstword $(KUEUE_RELEASES))
.PHONY: conformance-releases
conformance-releases: tools kueue-releases
	set -o pipefail; $(foreach r,$(KUEUE_RELEASES),KUEUESIM_CONFORMANCE_SIM=$(CURDIR)/bin/sim-kueue-$(r) \
		$(GO) test -tags integration -count=1 -timeout 40m -v ./conformance \
		$(if $(filter $(r),$(CONFORMANCE_RELEASES)),,-run '^TestBundledScenariosOnRelease$$') 2>&1 | grep -Ev "^=== (RUN|PAUSE|CONT)" &&) true

## bench: benchmarks on the embedded control plane (medians need BENCH_COUNT=3 on a quiet machine):
##        Kueue's baseline shape with raw Workloads and Jobs at BENCH_SIZES, Kueue's own harness, the openb fill replay
BENCH_SIZES ?= 1000,5000,15000
BENCH_COUNT ?= 1
BENCH ?= .
## BENCH_TIMEOUT: go test's -timeout for bench (a 50k raw-Workload run alone takes about two hours here)
BENCH_TIMEOUT ?= 24h
## BENCH_KUEUE: the Kueue release both sides of bench run, kueue-sim and Kueue's own harness (default: go.mod's; or one of KUEUE_RELEASES)
BENCH_KUEUE ?=
bench_env = $(if $(BENCH_KUEUE),GOFLAGS=-modfile=$(CURDIR)/hack/kueue/$(BENCH_KUEUE).mod)
bench_tags = integration$(if $(BENCH_KUEUE), $(call kueue_tag,$(BENCH_KUEUE)))
.PHONY: bench
bench: tools
	$(bench_env) KUEUESIM_BENCH_SIZES=$(BENCH_SIZES) $(GO) test -tags "$(bench_tags)" ./bench -run '^$$' -bench '$(BENCH)' -benchtime 1x -count $(BENCH_COUNT) -timeout $(BENCH_TIMEOUT) -v

## clean: remove build output (not the cached control-plane binaries)
.PHONY: clean
clean:
	rm -rf bin

.PHONY: help
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
