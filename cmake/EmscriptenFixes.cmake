# Fixes for Emscripten 3.1.6 on Node 20 (docs/emscripten-3.1.6.md). Include
# before project(); call wsync_emscripten316_fixes() after it.
#
# em++ needs Debian's acorn, which lives in /usr/share/nodejs, a folder Node
# 20 no longer searches: NODE_PATH is set for the compiler checks that
# project() runs, and the build steps get it through compiler launchers.
if(CMAKE_TOOLCHAIN_FILE MATCHES "Emscripten" AND IS_DIRECTORY /usr/share/nodejs)
  set(ENV{NODE_PATH} "/usr/share/nodejs")
endif()

macro(wsync_emscripten316_fixes)
  if(EMSCRIPTEN)
    if(IS_DIRECTORY /usr/share/nodejs)
      set(wsync_node_env env NODE_PATH=/usr/share/nodejs)
      set(CMAKE_C_COMPILER_LAUNCHER ${wsync_node_env})
      set(CMAKE_CXX_COMPILER_LAUNCHER ${wsync_node_env})
      set(CMAKE_C_LINKER_LAUNCHER ${wsync_node_env})
      set(CMAKE_CXX_LINKER_LAUNCHER ${wsync_node_env})
    endif()
    # emcmake's default emulator passes --experimental-wasm-threads, which
    # Node 20 rejects; 3.1.6's loader also needs Node's global fetch off.
    find_program(WSYNC_NODE NAMES node nodejs REQUIRED)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${WSYNC_NODE};--no-experimental-fetch")
  endif()
endmacro()
