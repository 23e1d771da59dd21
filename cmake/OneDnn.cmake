# oneDNN (Debian: libdnnl-dev) as the imported target ridgeline::onednn. Found by hand rather than through its
# CMake package, whose Debian build (GPU runtime OpenCL) would make the OpenCL headers a build dependency too.
# Debian's oneDNN runs its CPU threads on OpenMP: libgomp is linked so the engine can set the thread count.
if(NOT TARGET ridgeline::onednn)
    find_path(RIDGELINE_ONEDNN_INCLUDE_DIR oneapi/dnnl/dnnl.hpp REQUIRED)
    find_library(RIDGELINE_ONEDNN_LIBRARY dnnl REQUIRED)
    find_package(OpenMP REQUIRED COMPONENTS CXX)
    add_library(ridgeline::onednn INTERFACE IMPORTED GLOBAL)
    target_include_directories(ridgeline::onednn SYSTEM INTERFACE ${RIDGELINE_ONEDNN_INCLUDE_DIR})
    target_link_libraries(ridgeline::onednn INTERFACE ${RIDGELINE_ONEDNN_LIBRARY} ${OpenMP_CXX_LIBRARIES})
endif()
