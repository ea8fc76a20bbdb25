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
# The source folder is $SUITE_SOURCE (default: the wsync tree).
suite() {
  local name=$1 dir=$2
  shift 2
  echo "== $name: configure and build ($dir)"
  if ! "$@" -S "${SUITE_SOURCE:-.}" -B "$dir" >"$dir.configure.log" 2>&1; then
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
# No test may hang the run: each test gets 5 minutes (the slowest takes
# under a minute here), the whole suite 20; a suite that hits the wall is a
# failure that says so.
node_suite() {
  local name=$1
  shift
  echo "== $name: test"
  local log="build/$name.log"
  local rc=0
  timeout -k 15 1200 node --test --test-timeout=300000 "$@" >"$log" 2>&1 || rc=$?
  grep -E '^not ok' -A 12 "$log" | head -60
  local passed failed cancelled
  passed=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$log" | tail -1)
  failed=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$log" | tail -1)
  cancelled=$(sed -nE 's/^# cancelled ([0-9]+)$/\1/p' "$log" | tail -1)
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    tail -30 "$log"
    echo "== $name: still running after 20 minutes; stopped"
    summary+=("$name: timed out")
    total_failed=$((total_failed + 1))
    return
  fi
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

# step NAME EXPECTED_OUTPUT_REGEX COMMAND...: one counted check (a build, a
# run), stopped after 10 minutes.
step() {
  local name=$1 expected=$2
  shift 2
  local log="build/step.$name.log"
  if timeout -k 15 600 "$@" >"$log" 2>&1 && grep -Eq "$expected" "$log"; then
    total_passed=$((total_passed + 1))
    summary+=("$name: passed")
  else
    echo "== $name FAILED: $*"
    tail -30 "$log"
    total_failed=$((total_failed + 1))
    summary+=("$name: FAILED")
  fi
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

# Installing, and every example built against the installed copy as an app
# would build it: the examples tree on its own (find_package), a separate
# CMake project, and plain compiler command lines with pkg-config.
echo "== installed: install to build/prefix-{wasm,native}, build the examples against it"
rm -rf build/prefix-wasm build/prefix-native
step install-wasm "Installing: .*/lib/libwsync.a" cmake --install build/wasm --prefix build/prefix-wasm
step install-native "Installing: .*/lib/libwsync.a" cmake --install build/native --prefix build/prefix-native
# Emscripten's toolchain file confines find_package to its sysroot: a prefix
# outside it goes in CMAKE_FIND_ROOT_PATH.
SUITE_SOURCE=examples suite examples-installed-wasm build/examples-wasm \
  emcmake cmake -DCMAKE_BUILD_TYPE=Release "-DCMAKE_FIND_ROOT_PATH=$root/build/prefix-wasm"
SUITE_SOURCE=examples suite examples-installed-native build/examples-native \
  cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_PREFIX_PATH=$root/build/prefix-native"
# Debian's Emscripten 3.1.6 on Node 20 needs NODE_PATH (docs/emscripten-3.1.6.md).
export NODE_PATH=/usr/share/nodejs
consumer=examples/cmake-consumer
expected="^consumer: sum of 1..1000 = 500500$"
step consumer-cmake-wasm-build "Built target consumer" bash -c "emcmake cmake -S $consumer -B build/consumer-wasm \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_ROOT_PATH=$root/build/prefix-wasm && cmake --build build/consumer-wasm"
step consumer-cmake-wasm-run "$expected" node --no-experimental-fetch build/consumer-wasm/consumer.js
step consumer-cmake-native-build "Built target consumer" bash -c "cmake -S $consumer -B build/consumer-native \
  -DCMAKE_PREFIX_PATH=$root/build/prefix-native && cmake --build build/consumer-native"
step consumer-cmake-native-run "$expected" build/consumer-native/consumer
step consumer-fetchcontent-wasm "$expected" bash -c "emcmake cmake -S $consumer -B build/consumer-src-wasm \
  -DCMAKE_BUILD_TYPE=Release -DWSYNC_SOURCE_DIR=$root && cmake --build build/consumer-src-wasm \
  && node --no-experimental-fetch build/consumer-src-wasm/consumer.js"
step consumer-pkg-config-wasm "$expected" bash -c "em++ -std=c++17 -O2 $consumer/main.cpp -o build/consumer-pc.js \
  \$(PKG_CONFIG_PATH=build/prefix-wasm/lib/pkgconfig pkg-config --cflags --libs wsync) \
  -sPTHREAD_POOL_SIZE=4 -sEXIT_RUNTIME=1 && node --no-experimental-fetch build/consumer-pc.js"
step consumer-pkg-config-native "$expected" bash -c "g++ -std=c++17 -O2 $consumer/main.cpp -o build/consumer-pc \
  \$(PKG_CONFIG_PATH=build/prefix-native/lib/pkgconfig pkg-config --cflags --libs wsync) && build/consumer-pc"
unset NODE_PATH
WSYNC_EXAMPLES_BUILD_DIR=build/examples-wasm node_suite browser-installed tests/browser/examples.test.mjs

echo
echo "== summary"
printf '  %s\n' "${summary[@]}"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
