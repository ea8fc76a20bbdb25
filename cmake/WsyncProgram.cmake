# wsync_program(<target> [POOL <n>]): link settings for a wsync program.
#
# Native: nothing to add. WebAssembly (Emscripten 3.1.6) programs run in Node:
#   PROXY_TO_PTHREAD   main() runs on a pthread, so the Node main thread stays
#                      free to create workers and run calls proxied to it;
#   PTHREAD_POOL_SIZE  workers start before main(): 3.1.6 can deadlock when a
#                      thread is created on demand while another waits;
#   EXIT_RUNTIME       otherwise idle pool workers keep Node alive;
#   INITIAL_MEMORY     thread stacks exhaust the default heap ("Aborted(OOM)");
#   --profiling-funcs  keeps function names, so wasm-dis shows which function
#                      holds each memory.atomic.wait32.
function(wsync_program target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "POOL" "")
  if(NOT arg_POOL)
    set(arg_POOL 12)
  endif()
  target_link_libraries(${target} PRIVATE wsync::wsync)
  if(EMSCRIPTEN)
    target_link_options(${target} PRIVATE
      -sPROXY_TO_PTHREAD=1
      -sPTHREAD_POOL_SIZE=${arg_POOL}
      -sEXIT_RUNTIME=1
      -sINITIAL_MEMORY=256MB
      --profiling-funcs)
  endif()
endfunction()
