#!/usr/bin/env bash
# Installs what wsync's build and tests need on Debian 12, and nothing that is
# already there. Safe to run again. Run as root (or with sudo available).
set -euo pipefail

say() { printf '[setup] %s\n' "$*"; }

# Debian packages, each with the command or file that shows it is present.
#   emscripten 3.1.6 (brings binaryen 108: wasm-dis, wasm-opt), GoogleTest
#   sources, Python 3 (emcc and the test helpers), Node.js and npm.
packages=(
  "cmake:command:cmake"
  "g++:command:g++"
  "make:command:make"
  "python3:command:python3"
  "emscripten:command:emcc"
  "binaryen:command:wasm-dis"
  "googletest:file:/usr/src/googletest/CMakeLists.txt"
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

say "emcc $(NODE_PATH=/usr/share/nodejs emcc --version 2>/dev/null | head -1 | sed 's/.*) //'), node $(node --version), cmake $(cmake --version | head -1 | awk '{print $3}')"
