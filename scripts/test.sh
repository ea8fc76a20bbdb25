#!/usr/bin/env bash
# Runs every wsync test: installs what is missing, builds native, native
# under ThreadSanitizer, and wasm (tests run in Node and in Chromium), runs
# each suite, and ends with one line: "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

jobs=$(nproc 2>/dev/null || echo 2)
total_passed=0
total_failed=0
summary=()

# suite NAME BUILD_DIR CONFIGURE_COMMAND...: configure, build, ctest; counts.
suite() {
  local name=$1 dir=$2
  shift 2
  echo "== $name: configure and build ($dir)"
  if ! "$@" -S . -B "$dir" >"$dir.configure.log" 2>&1; then
    cat "$dir.configure.log"
    summary+=("$name: configure failed")
    total_failed=$((total_failed + 1))
    return
  fi
  if ! cmake --build "$dir" -j "$jobs" >"$dir.build.log" 2>&1; then
    tail -50 "$dir.build.log"
    summary+=("$name: build failed")
    total_failed=$((total_failed + 1))
    return
  fi
  echo "== $name: test"
  local log="$dir.ctest.log"
  (cd "$dir" && ctest -j "$jobs" --output-on-failure --timeout 300) >"$log" 2>&1
  grep -E '\*\*\*' "$log" | head -40
  local line
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
  if [ -z "$line" ]; then
    tail -30 "$log"
    summary+=("$name: ctest ran no test")
    total_failed=$((total_failed + 1))
    return
  fi
  local failed all
  failed=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
  all=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
  summary+=("$name: $((all - failed)) passed, $failed failed")
  total_passed=$((total_passed + all - failed))
  total_failed=$((total_failed + failed))
}

# node_suite NAME DIR...: Node's own test runner; counts from its summary.
node_suite() {
  local name=$1
  shift
  echo "== $name: test"
  local log="build/$name.log"
  node --test "$@" >"$log" 2>&1
  grep -E '^not ok' -A 12 "$log" | head -60
  local passed failed cancelled
  passed=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$log" | tail -1)
  failed=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$log" | tail -1)
  cancelled=$(sed -nE 's/^# cancelled ([0-9]+)$/\1/p' "$log" | tail -1)
  if [ -z "$passed" ] || [ $((passed + failed + cancelled)) -eq 0 ]; then
    tail -30 "$log"
    summary+=("$name: ran no test")
    total_failed=$((total_failed + 1))
    return
  fi
  failed=$((failed + cancelled))
  summary+=("$name: $passed passed, $failed failed")
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
}

mkdir -p build
suite native build/native cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo
suite tsan build/tsan cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWSYNC_SANITIZE=thread
# Release (-O3): see docs/emscripten-3.1.6.md for what -O2 and ASSERTIONS do.
suite wasm build/wasm emcmake cmake -DCMAKE_BUILD_TYPE=Release
# The JS module alone (worker_threads) and with the wasm build (interop).
WSYNC_WASM_BUILD_DIR=build/wasm node_suite js tests/js/
# The dev server, as a user meets it (headers, types, traversal, misuse).
node_suite server tests/server/
# Real Chromium (Playwright) on pages of the wasm build (the demo and the
# main-thread programs), served by serve.py; the demo is checked against the
# native build's filter output.
WSYNC_WASM_BUILD_DIR=build/wasm WSYNC_NATIVE_BUILD_DIR=build/native node_suite browser tests/browser/

echo
echo "== summary"
printf '  %s\n' "${summary[@]}"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
