#!/usr/bin/env bash
# The main job: installs what is missing, builds the demo (a parallel image
# filter in C++ on wsync, web/ and examples/filter/) for WebAssembly with the
# current Emscripten (what users have; scripts/setup.sh installs it), and
# serves it with serve.py, which sends the COOP/COEP headers wasm threads
# need. Open the printed URL; Ctrl-C stops. Extra arguments go to serve.py
# (e.g. --port 8080).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

setup_rc=0
bash scripts/setup.sh || setup_rc=$?
mkdir -p build
log=build/demo-build.log
if [ "$setup_rc" -eq 0 ]; then
  dir=build/wasm-current
  run=(bash scripts/current-emscripten.sh)
  echo "[demo] building the demo with Emscripten $("${run[@]}" --version) in $dir"
elif [ "$setup_rc" -eq 2 ]; then
  dir=build/wasm
  run=()
  echo "[demo] the current Emscripten is missing (see above); building the demo with Debian 12's 3.1.6 in $dir" >&2
else
  exit 1
fi
if ! { "${run[@]}" emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release &&
       "${run[@]}" cmake --build "$dir" -j "$(nproc)" --target demo; } >"$log" 2>&1; then
  tail -40 "$log"
  echo "[demo] the build failed; the whole log is in $log" >&2
  exit 1
fi
echo "[demo] serving $dir/web (open the URL below; Ctrl-C stops)"
exec python3 serve.py "$dir/web" "$@"
