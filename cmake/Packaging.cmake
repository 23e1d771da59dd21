# The Debian package: `cpack -G DEB` in a build directory writes ridgeline_<version>_<arch>.deb, which
# `apt-get install ./ridgeline_*.deb` installs on Debian 12 with the libraries it needs (scripts/check-package
# builds it, installs it into a scratch root or the machine, and runs it).
#
# What it holds: the binary (catalogs, scenes, the bundled session and the icon are Qt resources compiled into
# it, so it needs no data files at run time), the desktop entry and icon (the menu), the manual page generated
# from the binary's own help (app/CMakeLists.txt), the README and the bundled session as an example.
include(GNUInstallDirs)

set(RIDGELINE_PACKAGE_MAINTAINER "Ridgeline developers <ridgeline@example.org>"
    CACHE STRING "Maintainer field of the Debian package (name <email>)")

# Debian wants the package's name (lower case) for its doc folder; CMAKE_INSTALL_DOCDIR would say "Ridgeline".
set(ridgeline_doc_dir ${CMAKE_INSTALL_DATAROOTDIR}/doc/ridgeline)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/resources/debian/copyright
        DESTINATION ${ridgeline_doc_dir})
# The session format's JSON Schema, for users who read sessions from their own programs.
install(FILES ${PROJECT_SOURCE_DIR}/resources/schema/session.schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ridgeline/schema)
# Debian's changelog, gzipped without name or time stamp (-n) so the same text gives the same bytes.
set(ridgeline_changelog ${PROJECT_BINARY_DIR}/changelog)
add_custom_command(OUTPUT ${ridgeline_changelog}.gz
    COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/resources/debian/changelog ${ridgeline_changelog}
    COMMAND gzip -9 -n -f ${ridgeline_changelog}
    DEPENDS ${PROJECT_SOURCE_DIR}/resources/debian/changelog
    VERBATIM)
add_custom_target(ridgeline_changelog ALL DEPENDS ${ridgeline_changelog}.gz)
install(FILES ${ridgeline_changelog}.gz DESTINATION ${ridgeline_doc_dir})
install(FILES ${PROJECT_SOURCE_DIR}/resources/sessions/bundled-epyc-zen4-2vcpu.json
        DESTINATION ${ridgeline_doc_dir}/examples)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ridgeline)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Ridgeline")
set(CPACK_PACKAGE_CONTACT "${RIDGELINE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # ridgeline_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# CPack puts the summary first and indents each line of the long description by one space.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "roofline model and LLM batching, measured and made tangible")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Ridgeline measures this machine's roofline (compute ceilings for every
precision and ISA, bandwidth ceilings for L1, L2, L3 and DRAM), places real
OpenBLAS kernels on it, draws datasheet GPU rooflines beside it and models
LLM inference (batch, context, KV cache, tensor parallelism) on those GPUs.
Sessions are saved as JSON; profiles from Nsight Compute, ERT and likwid can
be imported. A Qt 6 window and a command line (ridgeline help).")
# Libraries come from dpkg-shlibdeps (libqt6*, libopenblas0, libc6, ...). Qt loads its platform, image and
# icon plugins at run time, which shlibdeps cannot see: xcb and offscreen ship in libqt6gui6, the SVG icon
# engine (the window's icon) in libqt6svg6, both already linked. Wayland sessions want qt6-wayland, else Qt
# falls back to X11 through XWayland.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland")
include(CPack)
