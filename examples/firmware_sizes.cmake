# Writes firmware_sizes.h from what `minnx info` prints for a model:
# cmake -DMINNX=... -DMODEL=... -DOUT=... -P firmware_sizes.cmake
execute_process(COMMAND ${MINNX} info ${MODEL} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
string(REGEX MATCH "caller memory: model ([0-9]+) bytes to load \\(([0-9]+) kept\\), session ([0-9]+) bytes\n" line "${out}")
if(NOT rc EQUAL 0 OR NOT line)
  message(FATAL_ERROR "minnx info ${MODEL} did not print the caller-memory sizes:\n${out}")
endif()
file(WRITE ${OUT} "/* from: minnx info ${MODEL} */\n#define MODEL_LOAD_BYTES ${CMAKE_MATCH_1}\n"
                  "#define MODEL_KEPT_BYTES ${CMAKE_MATCH_2}\n#define SESSION_BYTES ${CMAKE_MATCH_3}\n")
