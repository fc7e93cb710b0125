# kueue-sim — see README.md.
SHELL := /usr/bin/env bash
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# Test packages run two at a time by default (each integration package starts
# its own control plane); override with GOTESTFLAGS.
GOTESTFLAGS ?= -count=1 -timeout 20m

.PHONY: all
all: build

## tools: build the control-plane binaries from source into the user cache (once)
.PHONY: tools
tools:
	@hack/build-tools.sh

## kwok: build kwok and kwokctl (sigs.k8s.io/kwok) beside the control-plane binaries (once)
.PHONY: kwok
kwok:
	@hack/build-kwok.sh

## manifests: copy the dependencies' CRDs and Kueue's webhooks from the module cache
.PHONY: manifests
manifests:
	@hack/copy-manifests.sh

## build: build bin/sim
.PHONY: build
build: manifests
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/sim ./cmd/sim

## up: start the embedded control plane with Kueue (Ctrl-C stops it)
.PHONY: up
up: tools build
	bin/sim up

## test: unit and integration tests against the real control plane
.PHONY: test
test: tools manifests
	$(GO) vet ./...
	$(GO) test $(GOTESTFLAGS) ./...

## clean: remove build output (not the cached control-plane binaries)
.PHONY: clean
clean:
	rm -rf bin

.PHONY: help
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
