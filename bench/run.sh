#!/usr/bin/env bash
# Speed comparison of TapeLab against TensorFlow.js, PyTorch and gorgonia (bench/README.md).
# Called by ./build.sh bench; installs its own node and Debian dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

say() { printf '== %s\n' "$*" >&2; }

if ! /usr/bin/python3 -c 'import torch' 2>/dev/null; then
	say "installing python3-torch (Debian)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-torch >/dev/null
fi
say "installing TensorFlow.js 4.22.0 (npm ci)"
(cd bench/js && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
bench/js/node_modules/.bin/esbuild bench/js/bench.mjs --bundle --platform=node \
	--main-fields=module,main --log-level=warning --outfile="$out/tfbench.cjs"

say "building TapeLab contenders (native and wasm)"
go build -o "$out/tapebench" ./bench/cmd/tapebench
GOOS=js GOARCH=wasm go build -o "$out/tapebench.wasm" ./bench/cmd/tapebench
say "building gorgonia contenders (bench/gorgonia, a module of its own; native and wasm)"
(cd bench/gorgonia && go build -o "$out/gorgoniabench" . && GOOS=js GOARCH=wasm go build -o "$out/gorgoniabench.wasm" .)
# wasmrun runs a wasm binary of $out under node.
wasmrun() {
	local bin=$1
	shift
	node "$(go env GOROOT)/lib/wasm/wasm_exec_node.js" "$out/$bin" "$@"
}

results="$out/results.jsonl"
rounds=${BENCH_ROUNDS:-3}
# The contenders take turns, round after round, and the report takes the
# median over every round's runs, so that load on the machine is shared.
for round in $(seq "$rounds"); do
	say "round $round of $rounds: TapeLab native"
	"$out/tapebench" -name tapelab-native | tee -a "$results" >&2
	say "round $round of $rounds: TapeLab wasm (node $(node --version))"
	wasmrun tapebench.wasm -name tapelab-wasm | tee -a "$results" >&2
	say "round $round of $rounds: gorgonia native and wasm"
	"$out/gorgoniabench" -name gorgonia | tee -a "$results" >&2
	wasmrun gorgoniabench.wasm -name gorgonia-wasm | tee -a "$results" >&2
	say "round $round of $rounds: TensorFlow.js (cpu and wasm backends)"
	node "$out/tfbench.cjs" bench/js/node_modules/@tensorflow/tfjs-backend-wasm/dist 2>/dev/null | tee -a "$results" >&2
	say "round $round of $rounds: PyTorch (one thread)"
	/usr/bin/python3 bench/torch_bench.py | tee -a "$results" >&2
done

say "allocations per training step (native, go test -bench)"
go test -run '^$' -bench 'Step$' -benchmem ./bench | grep -E '^Benchmark' >&2
say "heap growth over 10,000 steps in wasm"
wasmrun tapebench.wasm -name tapelab-wasm -heapcheck 10000 >&2
say "playground wasm size (as ./build.sh build makes it)"
go run . build >&2
go run ./bench/cmd/wasmsize static/tapelab.wasm >&2

say "Lighthouse 12.2.3 on the served page, mobile and desktop presets (Chromium $(/usr/bin/chromium --version 2>/dev/null | cut -d' ' -f2))"
if [[ ! -d bench/lighthouse/node_modules ]]; then
	(cd bench/lighthouse && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
go run ./bench/cmd/lighthouse -static static >"$out/lighthouse.txt"

echo "TapeLab speed comparison, $(date -u +%Y-%m-%d), $(nproc) cores, $(go version | cut -d' ' -f3), node $(node --version)"
go run ./bench/cmd/benchreport <"$results"
cat "$out/lighthouse.txt"
