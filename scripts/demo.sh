#!/usr/bin/env bash
# The main job: installs what is missing, builds wsync for WebAssembly, and
# runs the WaitGroup example in Node (C++ pthreads square and cube numbers,
# the caller waits on a WaitGroup, then reads the results from shared memory).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/setup.sh
echo "[demo] building for wasm in build/wasm"
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j "$(nproc)" --target square_cube >/dev/null
echo "[demo] running examples/waitgroup in Node"
node --no-experimental-fetch build/wasm/examples/waitgroup/square_cube.js
