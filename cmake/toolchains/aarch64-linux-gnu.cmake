# Cross build for 64-bit ARM Linux: Debian's aarch64-linux-gnu cross compiler against the arm64 sysroot
# that scripts/arm64-sysroot.sh unpacks, with the host's (amd64) Qt tools for moc, rcc and uic. Executables run under
# qemu-aarch64, so ctest and gtest_discover_tests work as on a native build; QEMU_CPU picks the emulated CPU
# (`max,sve128=on`, `max,sve512=on`, `neoverse-n1`, ...).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT RIDGELINE_ARM64_SYSROOT)
    if(DEFINED ENV{RIDGELINE_ARM64_SYSROOT})
        set(RIDGELINE_ARM64_SYSROOT "$ENV{RIDGELINE_ARM64_SYSROOT}")
    else()
        set(RIDGELINE_ARM64_SYSROOT /var/cache/ridgeline-arm64-sysroot/sysroot)
    endif()
endif()
if(NOT EXISTS "${RIDGELINE_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu")
    message(FATAL_ERROR "No arm64 sysroot at ${RIDGELINE_ARM64_SYSROOT}: `./scripts/test arm64` makes it")
endif()
set(RIDGELINE_ARM64_SYSROOT "${RIDGELINE_ARM64_SYSROOT}" CACHE PATH "The arm64 sysroot (scripts/arm64-sysroot.sh)")
# try_compile projects read this file again; hand them the sysroot.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES RIDGELINE_ARM64_SYSROOT)

set(CMAKE_SYSROOT "${RIDGELINE_ARM64_SYSROOT}")
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config (OpenBLAS) reads the sysroot's .pc files and prefixes their paths with the sysroot.
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${CMAKE_SYSROOT}")
set(ENV{PKG_CONFIG_LIBDIR} "${CMAKE_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${CMAKE_SYSROOT}/usr/share/pkgconfig")

# Qt's build tools come from the host's Qt of the same version.
set(QT_HOST_PATH /usr)
set(QT_HOST_PATH_CMAKE_DIR "/usr/lib/${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu/cmake")

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L "${CMAKE_SYSROOT}")
