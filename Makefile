# Image URL to use all building/pushing image targets
IMG ?= controller:latest
# YEAR defines the year value used for substituting the YEAR placeholder in the boilerplate header.
YEAR ?= 2026

# Get the currently used golang install path (in GOPATH/bin, unless GOBIN is set)
ifeq (,$(shell go env GOBIN))
GOBIN=$(shell go env GOPATH)/bin
else
GOBIN=$(shell go env GOBIN)
endif

# CONTAINER_TOOL defines the container tool to be used for building images.
# Be aware that the target commands are only tested with Docker which is
# scaffolded by default. However, you might want to replace it to use other
# tools. (i.e. podman)
CONTAINER_TOOL ?= docker

# Setting SHELL to bash allows bash commands to be executed by recipes.
# Options are set to exit when a recipe line exits non-zero or a piped command fails.
SHELL = /usr/bin/env bash -o pipefail
.SHELLFLAGS = -ec

.PHONY: all
all: build

##@ General

# The help target prints out all targets with their descriptions organized
# beneath their categories. The categories are represented by '##@' and the
# target descriptions by '##'. The awk command is responsible for reading the
# entire set of makefiles included in this invocation, looking for lines of the
# file as xyz: ## something, and then pretty-format the target and help. Then,
# if there's a line with ##@ something, that gets pretty-printed as a category.
# More info on the usage of ANSI control characters for terminal formatting:
# https://en.wikipedia.org/wiki/ANSI_escape_code#SGR_parameters
# More info on the awk command:
# http://linuxcommand.org/lc3_adv_awk.php

.PHONY: help
help: ## Display this help.
	@awk 'BEGIN {FS = ":.*##"; printf "\nUsage:\n  make \033[36m<target>\033[0m\n"} /^[a-zA-Z_0-9-]+:.*?##/ { printf "  \033[36m%-15s\033[0m %s\n", $$1, $$2 } /^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) } ' $(MAKEFILE_LIST)

##@ Development

.PHONY: manifests
manifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CustomResourceDefinition objects.
	"$(CONTROLLER_GEN)" rbac:roleName=manager-role crd webhook paths="./api/..." paths="./internal/controller/..." paths="./internal/webhook/..." paths="./internal/certs/..." output:crd:artifacts:config=config/crd/bases
	go run ./hack/chart-rbac
	go run ./hack/chart-crds

.PHONY: generate
generate: controller-gen ## Generate DeepCopy methods and apply configurations for the API types.
	"$(CONTROLLER_GEN)" object:headerFile="hack/boilerplate.go.txt",year=$(YEAR) paths="./api/..."
	"$(CONTROLLER_GEN)" applyconfiguration:headerFile="hack/boilerplate.go.txt" paths="./api/..."

.PHONY: fmt
fmt: ## Run go fmt against code.
	go fmt ./...

.PHONY: vet
vet: ## Run go vet against code.
	go vet ./...

.PHONY: test
test: manifests generate fmt vet control-plane ## Run unit and envtest suites (race detector on) against the pinned control plane.
	KUBEBUILDER_ASSETS="$(K8S_ASSETS)" go test -race -count=1 -timeout 20m $$(go list ./... | grep -v /test/e2e) -coverprofile cover.out
	# The loop detector's random tests run a fifth of their rounds under the race detector (20x slower there).
	go test -count=1 -run 'TestLoopDetector' ./internal/safety/

.PHONY: test-e2e
test-e2e: control-plane ## Run the e2e suite: the real manager binary against a local kube-apiserver and etcd.
	KUBEBUILDER_ASSETS="$(K8S_ASSETS)" go test -count=1 -tags=e2e ./test/e2e/ -v -ginkgo.v -ginkgo.randomize-all -timeout 30m

.PHONY: bench-gateway
bench-gateway: control-plane ## Measure toolgate-gateway against a direct call and the create alone (docs/benchmarks.md); BENCH_ARGS="-deployed -gateway-cpu 1" runs the binaries as deployed.
	KUBEBUILDER_ASSETS="$(K8S_ASSETS)" go run ./hack/bench-gateway $(BENCH_ARGS)

.PHONY: bench-e2e
bench-e2e: control-plane ## Measure admission end to end: none / null webhook / toolgate, 1 and 8 clients, growth (docs/benchmarks.md).
	KUBEBUILDER_ASSETS="$(K8S_ASSETS)" go run ./hack/bench-e2e $(BENCH_ARGS)

.PHONY: test-all
test-all: test test-e2e ## Run every test: unit, envtest and e2e (the README's test command).

.PHONY: verify
verify: manifests generate fmt ## Regenerate everything, then fail if the tree differs from what is committed.
	@git diff --exit-code || { echo "generated files or formatting are out of date: run 'make manifests generate fmt' and commit" >&2; exit 1; }
	@test -z "$$(git status --porcelain -- api config internal cmd)" || { git status --porcelain -- api config internal cmd; echo "untracked generated files" >&2; exit 1; }

.PHONY: lint
lint: golangci-lint ## Run golangci-lint linter
	"$(GOLANGCI_LINT)" run

.PHONY: lint-fix
lint-fix: golangci-lint ## Run golangci-lint linter and perform fixes
	"$(GOLANGCI_LINT)" run --fix

.PHONY: lint-config
lint-config: golangci-lint ## Verify golangci-lint linter configuration
	"$(GOLANGCI_LINT)" config verify

##@ Build

.PHONY: build
build: manifests generate fmt vet ## Build manager binary.
	go build -o bin/manager ./cmd

.PHONY: build-hook
build-hook: fmt vet ## Build toolgate-hook, the coding agents' PreToolUse hook (docs/hook.md).
	CGO_ENABLED=0 go build -trimpath -o bin/toolgate-hook ./cmd/toolgate-hook # static: any agent image's C library

.PHONY: demo
demo: ## Run toolgate locally: control plane on loopback, CRDs, the real manager binary (the README's first command).
	@echo "toolgate demo: the first run downloads Go modules and builds kube-apiserver, etcd and kubectl (about 10 minutes on 2 cores); later runs start in seconds"
	@go mod download
	@go run ./hack/demo

.PHONY: run
RUN_ARGS ?= --disable-webhooks
run: manifests generate fmt vet ## Run a controller from your host (RUN_ARGS: the manager's flags; webhooks off, as the API server cannot reach a host).
	go run ./cmd $(RUN_ARGS)

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null)

GATEWAY_IMG ?= gateway:latest
HOOK_IMG ?= toolgate-hook:latest
# The platforms `make image` builds each image for, into one OCI image index (cross-compiled, CGO_ENABLED=0).
IMAGE_PLATFORMS ?= linux/amd64,linux/arm64

.PHONY: image
image: ## Build the manager's, toolgate-gateway's and toolgate-hook's OCI image indexes (IMAGE_PLATFORMS) without a container engine (bin/image/{manager,toolgate-gateway,toolgate-hook}[.tar]); PUSH=1 pushes IMG, GATEWAY_IMG and HOOK_IMG.
	go run ./hack/image --image $(IMG) --gateway-image $(GATEWAY_IMG) --hook-image $(HOOK_IMG) --version $(VERSION) --revision "$(REVISION)" --platforms $(IMAGE_PLATFORMS) $(if $(PUSH),--push)

.PHONY: plugin-archives
plugin-archives: ## Build the kubectl plugin's release archives for krew (bin/release; VERSION must be a tag such as v0.1.0).
	go run ./hack/plugin-archives --version $(VERSION)

# If you wish to build the manager image targeting other platforms you can use the --platform flag.
# (i.e. docker build --platform linux/arm64). However, you must enable docker buildKit for it.
# More info: https://docs.docker.com/develop/develop-images/build_enhancements/
# Override BASE_IMAGE to build from another registry, e.g.
# make docker-build IMG=<img> BASE_IMAGE=docker.io/library/golang:1.26
.PHONY: docker-build
docker-build: ## Build docker image with the manager.
	$(CONTAINER_TOOL) build $(if $(BASE_IMAGE),--build-arg BASE_IMAGE=$(BASE_IMAGE)) --build-arg VERSION=$(VERSION) --build-arg REVISION=$(REVISION) -t ${IMG} .

.PHONY: docker-push
docker-push: ## Push docker image with the manager.
	$(CONTAINER_TOOL) push ${IMG}

# PLATFORMS defines the target platforms for the manager image be built to provide support to multiple
# architectures. (i.e. make docker-buildx IMG=myregistry/mypoperator:0.0.1). To use this option you need to:
# - be able to use docker buildx. More info: https://docs.docker.com/build/buildx/
# - have enabled BuildKit. More info: https://docs.docker.com/develop/develop-images/build_enhancements/
# - be able to push the image to your registry (i.e. if you do not set a valid value via IMG=<myregistry/image:<tag>> then the export will fail)
# To adequately provide solutions that are compatible with multiple platforms, you should consider using this option.
PLATFORMS ?= linux/arm64,linux/amd64,linux/s390x,linux/ppc64le
.PHONY: docker-buildx
docker-buildx: ## Build and push docker image for the manager for cross-platform support
	# copy existing Dockerfile and insert --platform=${BUILDPLATFORM} into Dockerfile.cross, and preserve the original Dockerfile
	sed -e '1 s/\(^FROM\)/FROM --platform=\$$\{BUILDPLATFORM\}/; t' -e ' 1,// s//FROM --platform=\$$\{BUILDPLATFORM\}/' Dockerfile > Dockerfile.cross
	- $(CONTAINER_TOOL) buildx create --name toolgate-builder
	$(CONTAINER_TOOL) buildx use toolgate-builder
	- $(CONTAINER_TOOL) buildx build --push --platform=$(PLATFORMS) $(if $(BASE_IMAGE),--build-arg BASE_IMAGE=$(BASE_IMAGE)) --build-arg VERSION=$(VERSION) --build-arg REVISION=$(REVISION) --tag ${IMG} -f Dockerfile.cross .
	- $(CONTAINER_TOOL) buildx rm toolgate-builder
	rm Dockerfile.cross

.PHONY: build-installer
build-installer: manifests generate kustomize ## Generate a consolidated YAML with CRDs and deployment.
	mkdir -p dist
	cd config/manager && "$(KUSTOMIZE)" edit set image controller=${IMG}
	"$(KUSTOMIZE)" build config/default > dist/install.yaml

##@ Deployment

ifndef ignore-not-found
  ignore-not-found = false
endif

.PHONY: install
install: manifests kustomize ## Install CRDs into the K8s cluster specified in ~/.kube/config.
	@out="$$( "$(KUSTOMIZE)" build config/crd 2>/dev/null || true )"; \
	if [ -n "$$out" ]; then echo "$$out" | "$(KUBECTL)" apply -f -; else echo "No CRDs to install; skipping."; fi

.PHONY: uninstall
uninstall: manifests kustomize ## Uninstall CRDs from the K8s cluster specified in ~/.kube/config. Call with ignore-not-found=true to ignore resource not found errors during deletion.
	@out="$$( "$(KUSTOMIZE)" build config/crd 2>/dev/null || true )"; \
	if [ -n "$$out" ]; then echo "$$out" | "$(KUBECTL)" delete --ignore-not-found=$(ignore-not-found) -f -; else echo "No CRDs to delete; skipping."; fi

.PHONY: deploy
deploy: manifests kustomize ## Deploy controller to the K8s cluster specified in ~/.kube/config.
	cd config/manager && "$(KUSTOMIZE)" edit set image controller=${IMG}
	"$(KUSTOMIZE)" build config/default | "$(KUBECTL)" apply -f -

.PHONY: undeploy
undeploy: kustomize ## Undeploy controller from the K8s cluster specified in ~/.kube/config. Call with ignore-not-found=true to ignore resource not found errors during deletion.
	"$(KUSTOMIZE)" build config/default | "$(KUBECTL)" delete --ignore-not-found=$(ignore-not-found) -f -

##@ Dependencies

## Location to install dependencies to
LOCALBIN ?= $(shell pwd)/bin
$(LOCALBIN):
	mkdir -p "$(LOCALBIN)"

## Tool Binaries
KUBECTL ?= $(K8S_ASSETS)/kubectl
KUSTOMIZE ?= $(LOCALBIN)/kustomize
CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen
GOLANGCI_LINT = $(LOCALBIN)/golangci-lint

## Tool Versions
KUSTOMIZE_VERSION ?= v5.8.1
CONTROLLER_TOOLS_VERSION ?= v0.23.0

GOLANGCI_LINT_VERSION ?= v2.15.0
## The test control plane (kube-apiserver, etcd, kubectl), built from the Go module proxy by hack/build-control-plane.sh.
## The script owns the pinned versions (kube-apiserver/kubectl v1.37.2, etcd v3.6.16).
K8S_ASSETS ?= $(shell hack/build-control-plane.sh --dir)

.PHONY: control-plane
control-plane: ## Build kube-apiserver, kubectl and etcd into bin/k8s/ once (about 10 minutes on 2 cores); later runs reuse it.
	@hack/build-control-plane.sh

.PHONY: kustomize
kustomize: $(KUSTOMIZE) ## Download kustomize locally if necessary.
$(KUSTOMIZE): $(LOCALBIN)
	$(call go-install-tool,$(KUSTOMIZE),sigs.k8s.io/kustomize/kustomize/v5,$(KUSTOMIZE_VERSION))

.PHONY: controller-gen
controller-gen: $(CONTROLLER_GEN) ## Download controller-gen locally if necessary.
$(CONTROLLER_GEN): $(LOCALBIN)
	$(call go-install-tool,$(CONTROLLER_GEN),sigs.k8s.io/controller-tools/cmd/controller-gen,$(CONTROLLER_TOOLS_VERSION))

.PHONY: golangci-lint
golangci-lint: $(GOLANGCI_LINT) ## Download golangci-lint locally if necessary.
$(GOLANGCI_LINT): $(LOCALBIN)
	$(call go-install-tool,$(GOLANGCI_LINT),github.com/golangci/golangci-lint/v2/cmd/golangci-lint,$(GOLANGCI_LINT_VERSION))

# go-install-tool will 'go install' any package with custom target and name of binary, if it doesn't exist
# $1 - target path with name of binary
# $2 - package url which can be installed
# $3 - specific version of package
define go-install-tool
@[ -f "$(1)-$(3)" ] && [ "$$(readlink -- "$(1)" 2>/dev/null)" = "$(1)-$(3)" ] || { \
set -e; \
package=$(2)@$(3) ;\
echo "Downloading $${package}" ;\
rm -f "$(1)" ;\
GOBIN="$(LOCALBIN)" go install $${package} ;\
mv "$(LOCALBIN)/$$(basename "$(1)")" "$(1)-$(3)" ;\
} ;\
ln -sf "$$(realpath "$(1)-$(3)")" "$(1)"
endef

define gomodver
$(shell go list -m -f '{{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}' $(1) 2>/dev/null)
endef
