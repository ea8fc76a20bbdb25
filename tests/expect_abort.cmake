# Runs one misuse case and passes only if it dies (non-zero exit or signal)
# with MESSAGE on a line of its own in its output.
#   cmake -DRUNNER=<emulator;args or empty> -DPROGRAM=<path> -DCASE=<name>
#         -DMESSAGE=<exact line> -P expect_abort.cmake
execute_process(COMMAND ${RUNNER} ${PROGRAM} ${CASE}
  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
set(all "${out}${err}")
message("exit: ${result}\n${all}")
if(result STREQUAL "0")
  message(FATAL_ERROR "expected an abort, but '${CASE}' exited 0")
endif()
string(FIND "${all}" "${MESSAGE}\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "expected the line '${MESSAGE}'")
endif()
string(FIND "${all}" "survived misuse" survived)
if(NOT survived EQUAL -1)
  message(FATAL_ERROR "the program went on after the misuse")
endif()
