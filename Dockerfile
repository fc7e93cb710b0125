# The image of config/deploy: `sim serve` runs kueue-sim's OpenShift AI
# Kueue reconciler, admission webhooks and fake operators in a cluster.
#   docker build -t kueue-sim .
# e2e/kind builds it as kueue-sim:e2e and loads it into the kind nodes.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$(git describe --tags --always --dirty 2>/dev/null || echo image)" -o /out/sim ./cmd/sim

FROM gcr.io/distroless/static:nonroot
COPY --from=build /out/sim /sim
USER 65532:65532
ENTRYPOINT ["/sim"]
