# Warnings are set per target, never globally, so third-party code is not affected.
function(ridgeline_set_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
    if(RIDGELINE_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
    # Qt's string-safety: every conversion from char* to QString is spelled out.
    target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_USE_QSTRINGBUILDER QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
endfunction()
