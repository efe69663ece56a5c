#!/usr/bin/env bash
# TapeLab's one entry point for building, serving and testing.
# Run ./build.sh help for the subcommands. Needs Go (see go.mod) and, for the
# wasm tests, node; `test` and `e2e` install Chromium and PyTorch
# (python3-torch) with apt-get if missing.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

# staticcheck version served by the Go module proxy that knows Go 1.26.
STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.8.2

usage() {
	cat <<'USAGE'
usage: ./build.sh <command> [args]

  build    compile wasm/ into static/tapelab.wasm and copy wasm_exec.js
  serve    build if needed and serve the playground (flags: -addr HOST:PORT)
  test     every check: gofmt, go vet (native and js/wasm), staticcheck,
           native tests, js/wasm tests under node, then the Chromium tests;
           installs python3-torch and Chromium if missing, and fails the
           PyTorch export tests without torch (TAPELAB_TORCH=required)
  e2e      only the Chromium end-to-end tests (installs Chromium and
           python3-torch if missing)
  bench    speed against TensorFlow.js, PyTorch and gorgonia: a table, then RATIO
           lines; then Lighthouse scores of the served page (LIGHTHOUSE lines)
  dist     write the static site (hashed, precompressed, offline) into dist/
  worker   build the Cloudflare Worker in web/worker (npm ci, then its wasm
           and assets folder); deploy it with `cd web/worker && npx wrangler deploy`
  help     show this list
USAGE
}

stage() {
	printf '\n==> %s\n' "$*"
}

# wasm_go runs the go tool for GOOS=js GOARCH=wasm, with node as the test runner.
wasm_go() {
	PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go "$@"
}

# apt_install installs Debian packages with apt-get, as root or with sudo;
# what names the need in the messages.
apt_install() {
	local what=$1
	shift
	local sudo=()
	if [[ $(id -u) -ne 0 ]]; then
		if ! command -v sudo >/dev/null; then
			echo "error: installing $what needs root or sudo; install the Debian package(s) $* and retry." >&2
			exit 1
		fi
		sudo=(sudo)
	fi
	"${sudo[@]}" apt-get update -q
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "$@"
}

# ensure_chromium installs Debian's chromium when neither binary exists.
ensure_chromium() {
	if [[ -x /usr/lib/chromium/chromium || -x /usr/bin/chromium ]]; then
		return
	fi
	echo "Chromium is not installed; installing it with apt-get (about a minute)."
	apt_install Chromium chromium
	if [[ ! -x /usr/lib/chromium/chromium && ! -x /usr/bin/chromium ]]; then
		echo "error: apt-get finished but Chromium is still missing." >&2
		exit 1
	fi
}

# ensure_torch installs Debian's python3-torch when /usr/bin/python3 cannot
# import torch: the tests that run the PyTorch exports need it, and with
# TAPELAB_TORCH=required (which test and e2e set) they fail without it.
ensure_torch() {
	if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
		return
	fi
	echo "PyTorch is not installed for /usr/bin/python3; installing python3-torch with apt-get (a few minutes)."
	apt_install PyTorch python3-torch
	if ! /usr/bin/python3 -c 'import torch'; then
		echo "error: apt-get finished but /usr/bin/python3 still cannot import torch." >&2
		exit 1
	fi
}

# packages_but_e2e lists the module's packages except the browser tests.
packages_but_e2e() {
	go list ./... | grep -v '/e2e$'
}

run_e2e() {
	ensure_chromium
	ensure_torch
	stage "e2e: headless Chromium tests (go test ./e2e/)"
	TAPELAB_E2E=required TAPELAB_TORCH=required go test -count=1 -timeout 45m -v ./e2e/
}

run_tests() {
	stage "gofmt"
	local unformatted
	unformatted=$(gofmt -l .)
	if [[ -n $unformatted ]]; then
		echo "these files need gofmt -w:" >&2
		echo "$unformatted" >&2
		exit 1
	fi

	stage "go vet (native)"
	go vet ./...
	stage "go vet (GOOS=js GOARCH=wasm)"
	wasm_go vet ./...

	stage "staticcheck (native and GOOS=js GOARCH=wasm)"
	local bin
	bin=$(mktemp -d)
	trap 'rm -rf "$bin"' RETURN
	GOBIN=$bin go install "$STATICCHECK"
	"$bin/staticcheck" ./...
	GOOS=js GOARCH=wasm "$bin/staticcheck" ./...

	ensure_torch
	stage "native tests (go test ./... except e2e)"
	# shellcheck disable=SC2046 # one package path per word
	TAPELAB_TORCH=required go test -timeout 30m $(packages_but_e2e)

	stage "js/wasm tests under node (engine/... and wasm/)"
	wasm_go test -timeout 30m ./engine/... ./wasm/...

	run_e2e
}

run_bench() {
	# The speed comparison against TensorFlow.js, PyTorch and gorgonia (bench/README.md);
	# it installs its own node and Debian dependencies.
	bench/run.sh "$@"
}

# run_dist writes the self-contained static site into dist/:
# hashed assets, .gz/.br copies and the offline service worker.
run_dist() {
	go run . build
	rm -rf dist
	go run ./web/site/cmd/tapelab-dist -static static -out dist
}

cmd=${1:-help}
[[ $# -gt 0 ]] && shift
case $cmd in
build) go run . build "$@" ;;
serve) go run . serve "$@" ;;
test) run_tests ;;
e2e) run_e2e ;;
bench) run_bench "$@" ;;
dist) run_dist ;;
worker) (cd web/worker && npm ci --no-audit --no-fund && npm run build) ;;
help | -h | --help) usage ;;
*)
	usage >&2
	echo "unknown command: $cmd" >&2
	exit 2
	;;
esac
