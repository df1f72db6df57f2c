# `cmake --install build --prefix P`: the programs, the plugin, the runtime library and its
# headers, the data files, and the CMake package (find_package(Candor), docs/DESIGN.md):
#
#   P/bin/                   candor, dslc, candor_calibrate, candor_collect, candor_refeaturize
#   P/lib/                   libautoschedule_candor.so; libcandor_{support,runtime,search}.a
#   P/include/candor/        the runtime's headers (space.h, search.h, engines.h, ...), as the
#                            code dslc generates includes them ("space.h", "support/memory.h")
#   P/share/candor/          spaces/*.space, weights.json, machines/*.json (recorded machine
#                            descriptions); machine.json, this host's, once calibrated there
#   P/lib/cmake/Candor/      CandorConfig.cmake: Candor::dslc, Candor::runtime,
#                            Candor::autoschedule_candor, Candor::candor, candor_add_space()
#
# The layout is fixed (lib, not a multiarch libdir): the programs and the plugin find their
# data in ../share/candor from their own directory (support/install_dirs.h).
include(CMakePackageConfigHelpers)

set(CANDOR_INSTALL_INCLUDE include/candor)
set(CANDOR_INSTALL_DATA share/candor)
set(CANDOR_INSTALL_CMAKE lib/cmake/Candor)

# Candor::runtime: what a program needs to build a dslc-generated space and search it.
add_library(candor_package_runtime INTERFACE)
target_link_libraries(candor_package_runtime INTERFACE candor_search)
target_include_directories(candor_package_runtime INTERFACE $<INSTALL_INTERFACE:${CANDOR_INSTALL_INCLUDE}>)
target_compile_features(candor_package_runtime INTERFACE cxx_std_17)
set_target_properties(candor_package_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(candor_support PROPERTIES EXPORT_NAME support)
set_target_properties(candor_runtime PROPERTIES EXPORT_NAME propagation)
set_target_properties(candor_search PROPERTIES EXPORT_NAME search)
# The libraries' include directories are the source tree's; installed, their headers are
# under include/candor (candor_package_runtime's).
foreach(lib candor_support candor_runtime candor_search)
  get_target_property(dirs ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  list(TRANSFORM dirs PREPEND "$<BUILD_INTERFACE:")
  list(TRANSFORM dirs APPEND ">")
  set_target_properties(${lib} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${dirs}")
endforeach()

set(exported dslc candor candor_support candor_runtime candor_search candor_package_runtime)
if(TARGET autoschedule_candor)
  list(APPEND exported autoschedule_candor)
endif()
install(TARGETS ${exported} EXPORT CandorTargets
        RUNTIME DESTINATION bin
        LIBRARY DESTINATION lib
        ARCHIVE DESTINATION lib)
foreach(program candor_calibrate candor_collect_bin candor_refeaturize)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION bin)
  endif()
endforeach()

install(FILES runtime/candidate.h runtime/propagation.h runtime/random_dive.h runtime/search.h
              runtime/space.h runtime/statistics.h
              runtime/search/budget_text.h runtime/search/engines.h runtime/search/neighbours.h
              runtime/search/run.h
        DESTINATION ${CANDOR_INSTALL_INCLUDE})
install(FILES support/files.h support/install_dirs.h support/json_shape.h support/memory.h
              support/numbers.h support/progress.h
        DESTINATION ${CANDOR_INSTALL_INCLUDE}/support)

file(GLOB candor_spaces ${PROJECT_SOURCE_DIR}/spaces/*.space)
file(GLOB candor_machines ${PROJECT_SOURCE_DIR}/tests/machines/*.json)
install(FILES ${candor_spaces} DESTINATION ${CANDOR_INSTALL_DATA}/spaces)
install(FILES ${candor_machines} DESTINATION ${CANDOR_INSTALL_DATA}/machines)
if(CANDOR_HALIDE)
  install(FILES models/learned/weights.json DESTINATION ${CANDOR_INSTALL_DATA})
endif()

install(EXPORT CandorTargets NAMESPACE Candor:: DESTINATION ${CANDOR_INSTALL_CMAKE})
configure_package_config_file(cmake/CandorConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/CandorConfig.cmake
                              INSTALL_DESTINATION ${CANDOR_INSTALL_CMAKE} PATH_VARS CANDOR_INSTALL_DATA)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/CandorConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/CandorConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/CandorConfigVersion.cmake
              cmake/CandorSpace.cmake
        DESTINATION ${CANDOR_INSTALL_CMAKE})
