# cmake -DRIDGELINE=<binary> [-DEMULATOR=<runner;args>] -DOUTPUT=<dir>/ridgeline.1 -P ManPage.cmake
# Writes the manual page from the binary's own help (`ridgeline help --man`) and a gzipped copy beside it
# (-n: no name or time stamp inside, so the same page gives the same bytes).
set(ENV{ASAN_OPTIONS} "detect_leaks=0")  # the sanitizer build runs this too; Qt's one-off allocations are not ours
execute_process(COMMAND ${EMULATOR} "${RIDGELINE}" help --man OUTPUT_FILE "${OUTPUT}" ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "`ridgeline help --man` failed (${status}): ${errors}")
endif()
file(SIZE "${OUTPUT}" size)
if(size LESS 1000)
    message(FATAL_ERROR "`ridgeline help --man` wrote only ${size} bytes to ${OUTPUT}")
endif()
execute_process(COMMAND gzip -9 -n -k -f "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip ${OUTPUT} failed (${status})")
endif()
