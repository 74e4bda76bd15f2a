# The manager's image for those who build with Docker. `make image` builds the same image without
# a container engine (internal/image): one static binary on an empty base, user 65532, no shell
# (CA roots compiled in: cmd/roots.go), the same version stamped in and the same labels
# (`make docker-build` passes VERSION and REVISION as `make image` does).
# Override BASE_IMAGE to build from another registry, e.g. docker.io/library/golang:1.26
ARG BASE_IMAGE=golang:1.26
FROM ${BASE_IMAGE} AS builder
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=dev

WORKDIR /workspace
# Copy the Go Modules manifests first, so that source changes do not invalidate the module cache.
COPY go.mod go.mod
COPY go.sum go.sum
RUN go mod download

# Copy the Go source (relies on .dockerignore to filter)
COPY . .

# The same flags as internal/image: static, trimmed, stripped, the version stamped in.
RUN CGO_ENABLED=0 GOOS=${TARGETOS:-linux} GOARCH=${TARGETARCH} \
    go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o manager ./cmd

FROM scratch
ARG VERSION=dev
ARG REVISION=""
# internal/image.Labels; org.opencontainers.image.revision is empty where REVISION is not given.
LABEL org.opencontainers.image.title="toolgate manager" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="https://github.com/toolgate/toolgate" \
      org.opencontainers.image.revision="${REVISION}"
WORKDIR /
COPY --from=builder --chmod=0555 /workspace/manager /manager
USER 65532:65532

ENTRYPOINT ["/manager"]
