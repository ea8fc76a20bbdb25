# Fixes for Debian's Emscripten packages (docs/toolchains.md). Include before
# project(); call wsync_emscripten_fixes() after it.
#
# Debian's em++ needs the acorn in /usr/share/nodejs, a folder Node 20 no
# longer searches (3.1.6 on Debian 12): NODE_PATH is set for the compiler
# checks that project() runs, and the build steps get it through compiler
# launchers. Harmless where Node finds acorn by itself.
if(CMAKE_TOOLCHAIN_FILE MATCHES "Emscripten" AND IS_DIRECTORY /usr/share/nodejs)
  set(ENV{NODE_PATH} "/usr/share/nodejs")
endif()

macro(wsync_emscripten_fixes)
  if(EMSCRIPTEN)
    if(IS_DIRECTORY /usr/share/nodejs)
      set(wsync_node_env env NODE_PATH=/usr/share/nodejs)
      set(CMAKE_C_COMPILER_LAUNCHER ${wsync_node_env})
      set(CMAKE_CXX_COMPILER_LAUNCHER ${wsync_node_env})
      set(CMAKE_C_LINKER_LAUNCHER ${wsync_node_env})
      set(CMAKE_CXX_LINKER_LAUNCHER ${wsync_node_env})
    endif()
    # ctest runs wasm programs in Node. emcmake's emulator passes
    # --experimental-wasm-threads before 3.1.x, which Node 20 rejects; and
    # loaders before 3.1.11 use Node's global fetch (Node 18+) on a file
    # path, so it must be off. Later loaders read the file themselves, and
    # Node 24 rejects that flag: plain node.
    find_program(WSYNC_NODE NAMES node nodejs REQUIRED)
    if(EMSCRIPTEN_VERSION VERSION_LESS 3.1.11)
      set(CMAKE_CROSSCOMPILING_EMULATOR "${WSYNC_NODE};--no-experimental-fetch")
    else()
      set(CMAKE_CROSSCOMPILING_EMULATOR "${WSYNC_NODE}")
    endif()
  endif()
endmacro()
