#!/usr/bin/env bash
# Installs what wsync's build and tests need on Debian 12, and nothing that is
# already there. Safe to run again. Run as root (or with sudo available).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

say() { printf '[setup] %s\n' "$*"; }

# Debian packages, each with the command or file that shows it is present.
#   emscripten 3.1.6 (brings binaryen 108: wasm-dis, wasm-opt), GoogleTest
#   sources, Python 3 (emcc, serve.py, the test helpers), Node.js and npm,
#   Chromium (the browser tests; no test tool may download its own browser),
#   pkg-config (the example that links the installed wsync with it), spin
#   (the model checks in tests/models).
packages=(
  "cmake:command:cmake"
  "g++:command:g++"
  "make:command:make"
  "python3:command:python3"
  "emscripten:command:emcc"
  "binaryen:command:wasm-dis"
  "googletest:file:/usr/src/googletest/CMakeLists.txt"
  "chromium:file:/usr/bin/chromium"
  "pkgconf:command:pkg-config"
  "spin:command:spin"
)
# Node.js 20 comes with the machine image; Debian's nodejs is the fallback.
command -v node >/dev/null 2>&1 || packages+=("nodejs:command:node")
command -v npm >/dev/null 2>&1 || packages+=("npm:command:npm")

missing=()
for entry in "${packages[@]}"; do
  IFS=: read -r pkg kind what <<<"$entry"
  case "$kind" in
    command) command -v "$what" >/dev/null 2>&1 || missing+=("$pkg") ;;
    file) [ -e "$what" ] || missing+=("$pkg") ;;
  esac
done

if [ ${#missing[@]} -eq 0 ]; then
  say "all Debian packages present"
else
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "[setup] need root to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  say "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  say "installed: ${missing[*]}"
fi

# npm packages of the browser tests: playwright-core, pinned by
# tests/browser/package-lock.json; reinstalled when the lock names another version.
browser="$root/tests/browser"
want=$(node -p "require('$browser/package-lock.json').packages['node_modules/playwright-core'].version")
have=$(node -p "try { require('$browser/node_modules/playwright-core/package.json').version } catch { '' }")
if [ "$want" != "$have" ]; then
  say "npm ci in tests/browser (playwright-core $want)"
  (cd "$browser" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

say "emcc $(NODE_PATH=/usr/share/nodejs emcc --version 2>/dev/null | head -1 | sed 's/^emcc (.*) \([^ ]*\).*/\1/'), node $(node --version), cmake $(cmake --version | head -1 | awk '{print $3}'), $(chromium --version 2>/dev/null | head -1), playwright-core $want"
