#!/usr/bin/env bash
# The main job: installs what is missing, builds the demo (a parallel image
# filter in C++ on wsync, web/ and examples/filter/) for WebAssembly, and
# serves it with serve.py, which sends the COOP/COEP headers wasm threads
# need. Open the printed URL; Ctrl-C stops. Extra arguments go to serve.py
# (e.g. --port 8080).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/setup.sh
echo "[demo] building the demo for wasm in build/wasm"
mkdir -p build
log=build/demo-build.log
if ! { emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release &&
       cmake --build build/wasm -j "$(nproc)" --target filter_demo; } >"$log" 2>&1; then
  tail -40 "$log"
  echo "[demo] the build failed; the whole log is in $log" >&2
  exit 1
fi
echo "[demo] serving build/wasm/web (open the URL below; Ctrl-C stops)"
exec python3 serve.py build/wasm/web "$@"
