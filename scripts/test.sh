#!/usr/bin/env bash
# Runs every wsync test: installs what is missing, builds native, native
# under ThreadSanitizer, and wasm with both toolchains (Debian 12's
# Emscripten 3.1.6 and the current one, in scripts/setup.sh's chroot); runs
# each suite (wasm in Node and in Chromium per toolchain; in Firefox ESR,
# WebKitGTK and Firefox ESR 140), and ends with one line: "N passed, N
# failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

setup_rc=0
bash scripts/setup.sh || setup_rc=$?
if [ "$setup_rc" -ne 0 ] && [ "$setup_rc" -ne 2 ]; then echo "0 passed, 1 failed"; exit 1; fi

jobs=$(nproc 2>/dev/null || echo 2)
total_passed=0
total_failed=0
summary=()

# Every command of a leg runs through $RUN: empty on the host (Debian 12's
# 3.1.6), scripts/current-emscripten.sh for the current Emscripten.
RUN=()

# suite NAME BUILD_DIR CONFIGURE_COMMAND...: configure, build, ctest; counts.
# The source folder is $SUITE_SOURCE (default: the wsync tree).
suite() {
  local name=$1 dir=$2
  shift 2
  echo "== $name: configure and build ($dir)"
  if ! "${RUN[@]}" "$@" -S "${SUITE_SOURCE:-.}" -B "$dir" >"$dir.configure.log" 2>&1; then
    cat "$dir.configure.log"
    summary+=("$name: configure failed")
    total_failed=$((total_failed + 1))
    return
  fi
  if ! "${RUN[@]}" cmake --build "$dir" -j "$jobs" >"$dir.build.log" 2>&1; then
    tail -50 "$dir.build.log"
    summary+=("$name: build failed")
    total_failed=$((total_failed + 1))
    return
  fi
  echo "== $name: test"
  local log="$dir.ctest.log"
  (cd "$dir" && "${RUN[@]}" ctest -j "$jobs" --output-on-failure --timeout 300) >"$log" 2>&1
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
  timeout -k 15 1200 "${RUN[@]}" node --test --test-reporter=tap --test-timeout=300000 "$@" >"$log" 2>&1 || rc=$?
  grep -E '^not ok' -A 12 "$log" | head -60
  local passed failed cancelled skipped
  passed=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$log" | tail -1)
  skipped=$(sed -nE 's/^# skipped ([0-9]+)$/\1/p' "$log" | tail -1)
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
  # A skipped test says why in the log ("# SKIP reason"); it counts as neither.
  if [ "${skipped:-0}" -gt 0 ]; then
    summary+=("$name: $passed passed, $failed failed, $skipped skipped ($(grep -oE '# SKIP .*' "$log" | sort -u | sed 's/^# SKIP //' | awk 'NR > 1 { printf "; " } { printf "%s", $0 }'))")
  else
    summary+=("$name: $passed passed, $failed failed")
  fi
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
}

# step NAME EXPECTED_OUTPUT_REGEX COMMAND...: one counted check (a build, a
# run), stopped after 10 minutes.
step() {
  local name=$1 expected=$2
  shift 2
  local log="build/step.$name.log"
  if timeout -k 15 600 "${RUN[@]}" "$@" >"$log" 2>&1 && grep -Eq "$expected" "$log"; then
    total_passed=$((total_passed + 1))
    summary+=("$name: passed")
  else
    echo "== $name FAILED: $*"
    tail -30 "$log"
    total_failed=$((total_failed + 1))
    summary+=("$name: FAILED")
  fi
}

# not_run NAME WHY: a leg that could not run counts as failed, by name.
not_run() {
  echo "== $1: not run: $2"
  summary+=("$1: not run ($2)")
  total_failed=$((total_failed + 1))
}

mkdir -p build
old=$(NODE_PATH=/usr/share/nodejs emcc --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p')
old=${old:-3.1.6}
current=""
if [ "$setup_rc" -eq 0 ]; then current=$(bash scripts/current-emscripten.sh --version); fi
in_current=(bash "$root/scripts/current-emscripten.sh")
# with_current COMMAND...: a leg's function with RUN set to the current Emscripten.
with_current() {
  RUN=("${in_current[@]}")
  "$@"
  RUN=()
}
# The pure JS tests (every file but the interop ones, which need a wasm build).
js_only=()
for f in tests/js/*.test.mjs; do case "$f" in */interop*) ;; *) js_only+=("$f") ;; esac; done
interop=(tests/js/interop.test.mjs tests/js/interop_es6.test.mjs)

# C and C++ style (.clang-format): every tracked source as clang-format writes it.
step format-c-cxx "^formatted$" bash -c "git ls-files '*.c' '*.h' '*.cpp' '*.hpp' |
  xargs clang-format --dry-run -Werror && echo formatted"
# JavaScript style (.prettierrc.json, .prettierignore): every tracked JS file.
step format-js "^All matched files use Prettier code style" bash -c "git ls-files '*.js' '*.mjs' '*.cjs' '*.ts' |
  xargs tests/browser/node_modules/.bin/prettier --check"
suite native build/native cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo
suite tsan build/tsan cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWSYNC_SANITIZE=thread
# Release (-O3): see docs/toolchains.md for what -O2 and ASSERTIONS do.
suite "wasm-$old" build/wasm emcmake cmake -DCMAKE_BUILD_TYPE=Release
if [ -n "$current" ]; then
  with_current suite "wasm-$current" build/wasm-current emcmake cmake -DCMAKE_BUILD_TYPE=Release
else
  not_run wasm-current "the current Emscripten is not installed; see scripts/setup.sh's message above"
fi

# The JS module alone (worker_threads), in the host's Node 20 and the
# current toolchain's Node; then with each wasm build (interop).
node_suite js "${js_only[@]}"
WSYNC_WASM_BUILD_DIR=build/wasm node_suite "js-interop-wasm-$old" "${interop[@]}"
if [ -n "$current" ]; then
  node24=$("${in_current[@]}" node --version | sed 's/^v\([0-9]*\).*/\1/')
  with_current node_suite "js-node$node24" "${js_only[@]}"
  WSYNC_WASM_BUILD_DIR=build/wasm-current with_current node_suite "js-interop-wasm-$current" "${interop[@]}"
else
  not_run js-interop-wasm-current "no current Emscripten"
fi
# The dev server, as a user meets it (headers, types, traversal, misuse).
node_suite server tests/server/
# Real Chromium on pages of each wasm build (the demo and the main-thread
# programs), served by serve.py; the demo is checked against the native
# build's filter output.
WSYNC_WASM_BUILD_DIR=build/wasm WSYNC_NATIVE_BUILD_DIR=build/native node_suite "browser-wasm-$old" tests/browser/
if [ -n "$current" ]; then
  WSYNC_WASM_BUILD_DIR=build/wasm-current WSYNC_NATIVE_BUILD_DIR=build/native \
    node_suite "browser-wasm-$current" tests/browser/
else
  not_run browser-wasm-current "no current Emscripten"
fi
# The same suite in the other engines (tests/browser/harness.mjs), each
# counted on its own: Firefox ESR and WebKitGTK (on an Xvfb display) on the
# current toolchain's pages (JSPI where the engine has it), and Firefox ESR
# 140, which has no Atomics.waitAsync, on 3.1.6's, whose programs carry no
# polyfill of it: wsync's own fallback runs there.
engine_pages=build/wasm-current
engine_label=$current
if [ -z "$current" ]; then engine_pages=build/wasm; engine_label=$old; fi
firefox=$(firefox-esr --version 2>/dev/null | sed -n 's/.* \([0-9]*\)\..*/\1/p')
webkit=$(dpkg-query -W -f='${Version}' webkit2gtk-driver 2>/dev/null | sed 's/-.*//')
WSYNC_BROWSER=firefox WSYNC_WASM_BUILD_DIR=$engine_pages WSYNC_NATIVE_BUILD_DIR=build/native \
  node_suite "browser-firefox$firefox-wasm-$engine_label" tests/browser/
RUN=(xvfb-run -a)
WSYNC_BROWSER=webkit WSYNC_WASM_BUILD_DIR=$engine_pages WSYNC_NATIVE_BUILD_DIR=build/native \
  node_suite "browser-webkitgtk$webkit-wasm-$engine_label" tests/browser/
RUN=()
WSYNC_BROWSER=firefox-140 WSYNC_WASM_BUILD_DIR=build/wasm WSYNC_NATIVE_BUILD_DIR=build/native \
  node_suite "browser-firefox140-wasm-$old" tests/browser/

# Installing, and every example built against the installed copy as an app
# would build it: the examples tree on its own (find_package), a separate
# CMake project (installed, and from source with FetchContent), plain
# compiler command lines with pkg-config, and (3.1.54 and later) the
# Emscripten port.
consumer=examples/cmake-consumer
expected="^consumer: sum of 1..1000 = 500500$"

# installed_wasm LABEL BUILD_DIR NODE...: the wasm legs of one toolchain;
# the caller sets RUN.
installed_wasm() {
  local label=$1 build=$2
  shift 2
  local node=("$@") prefix="build/prefix-$label"
  echo "== installed-wasm-$label: install to $prefix, build the examples and consumers against it"
  rm -rf "$prefix"
  step "install-wasm-$label" "Installing: .*/lib/libwsync.a" cmake --install "$build" --prefix "$prefix"
  # Emscripten's toolchain file confines find_package to its sysroot: a
  # prefix outside it goes in CMAKE_FIND_ROOT_PATH.
  SUITE_SOURCE=examples suite "examples-installed-wasm-$label" "build/examples-wasm-$label" \
    emcmake cmake -DCMAKE_BUILD_TYPE=Release "-DCMAKE_FIND_ROOT_PATH=$root/$prefix"
  step "consumer-cmake-wasm-$label" "$expected" bash -c "emcmake cmake -S $consumer -B build/consumer-wasm-$label \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_ROOT_PATH=$root/$prefix && cmake --build build/consumer-wasm-$label \
    && ${node[*]} build/consumer-wasm-$label/consumer.js"
  step "consumer-fetchcontent-wasm-$label" "$expected" bash -c "emcmake cmake -S $consumer -B build/consumer-src-wasm-$label \
    -DCMAKE_BUILD_TYPE=Release -DWSYNC_SOURCE_DIR=$root && cmake --build build/consumer-src-wasm-$label \
    && ${node[*]} build/consumer-src-wasm-$label/consumer.js"
  step "consumer-pkg-config-wasm-$label" "$expected" bash -c "em++ -std=c++17 -O2 $consumer/main.cpp -o build/consumer-pc-$label.js \
    \$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs wsync) \
    -sPTHREAD_POOL_SIZE=4 -sEXIT_RUNTIME=1 && ${node[*]} build/consumer-pc-$label.js"
}

# Debian's Emscripten 3.1.6 on Node 20 needs NODE_PATH (docs/toolchains.md).
export NODE_PATH=/usr/share/nodejs
installed_wasm "$old" build/wasm node --no-experimental-fetch
unset NODE_PATH
WSYNC_EXAMPLES_BUILD_DIR="build/examples-wasm-$old" node_suite "browser-installed-wasm-$old" tests/browser/examples.test.mjs
if [ -n "$current" ]; then
  with_current installed_wasm "$current" build/wasm-current node
  # The port compiles wsync's installed sources with the app's em++; its
  # program carries wsync's pre-js (Module.wsyncMemory) and JS library.
  with_current step "consumer-port-wasm-$current" "$expected" bash -c "em++ -std=c++17 -O2 -pthread \
    $consumer/main.cpp --use-port=build/prefix-$current/share/wsync/wsync.py -sPTHREAD_POOL_SIZE=4 -sEXIT_RUNTIME=1 \
    -o build/consumer-port.js && grep -q wsyncMemory build/consumer-port.js && node build/consumer-port.js"
  with_current step "consumer-port-without-pthread-$current" \
    "wsync: the wsync port needs -pthread on every compile and link of the program" \
    bash -c "! em++ -O2 $consumer/main.cpp --use-port=build/prefix-$current/share/wsync/wsync.py -o build/consumer-port-nothreads.js"
  WSYNC_EXAMPLES_BUILD_DIR="build/examples-wasm-$current" \
    node_suite "browser-installed-wasm-$current" tests/browser/examples.test.mjs
else
  not_run installed-wasm-current "no current Emscripten"
fi

# When the chroot cannot be made, setup says what failed and how to retry,
# and exits 2 (the host is ready): tried with a mirror nobody serves.
step setup-reports-unreachable-mirror "the current Emscripten could not be installed in .*: mmdebstrap failed" \
  bash -c "rm -rf build/sid-unreachable*; out=\$(WSYNC_SID_ROOT=$root/build/sid-unreachable \
    WSYNC_DEBIAN_MIRROR=http://127.0.0.1:9/debian bash scripts/setup.sh 2>&1); rc=\$?; echo \"\$out\"; \
    rm -rf build/sid-unreachable*; [ \$rc -eq 2 ] && grep -q 'retry with: bash scripts/setup.sh' <<<\"\$out\""

echo "== installed-native: install to build/prefix-native, build the examples and consumers against it"
rm -rf build/prefix-native
step install-native "Installing: .*/lib/libwsync.a" cmake --install build/native --prefix build/prefix-native
SUITE_SOURCE=examples suite examples-installed-native build/examples-native \
  cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_PREFIX_PATH=$root/build/prefix-native"
step consumer-cmake-native "$expected" bash -c "cmake -S $consumer -B build/consumer-native \
  -DCMAKE_PREFIX_PATH=$root/build/prefix-native && cmake --build build/consumer-native && build/consumer-native/consumer"
step consumer-pkg-config-native "$expected" bash -c "g++ -std=c++17 -O2 $consumer/main.cpp -o build/consumer-pc \
  \$(PKG_CONFIG_PATH=build/prefix-native/lib/pkgconfig pkg-config --cflags --libs wsync) && build/consumer-pc"

echo
echo "== summary"
printf '  %s\n' "${summary[@]}"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
