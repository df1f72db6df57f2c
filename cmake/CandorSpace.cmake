# candor_add_space(TARGET [SPEC] file.space)
# Runs dslc on a .space file at build time and compiles the generated C++ into TARGET: added
# to TARGET when it exists (the caller's executable or library), else into a new static
# library TARGET. TARGET then includes "<stem>.gen.h" and links the runtime. The generated
# header is written only if changed, so dependents rebuild only when the space really changes.
# Inside the project it runs the dslc target and links candor_runtime; from an installed
# package (find_package(Candor), which installs this file) Candor::dslc and Candor::runtime.
function(candor_add_space target)
  cmake_parse_arguments(ARG "" "SPEC" "" ${ARGN})
  if(NOT ARG_SPEC AND ARG_UNPARSED_ARGUMENTS)
    list(POP_FRONT ARG_UNPARSED_ARGUMENTS ARG_SPEC)
  endif()
  if(NOT ARG_SPEC OR ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "candor_add_space(${target} ${ARGN}): expected candor_add_space(TARGET [SPEC] file.space)")
  endif()
  if(TARGET Candor::dslc)
    set(dslc Candor::dslc)
    set(runtime Candor::runtime)
  else()
    set(dslc dslc)
    set(runtime candor_runtime)
  endif()
  get_filename_component(spec_abs ${ARG_SPEC} ABSOLUTE)
  get_filename_component(stem ${ARG_SPEC} NAME_WE)
  set(out_dir ${CMAKE_BINARY_DIR}/generated/spaces)
  set(header ${out_dir}/${stem}.gen.h)
  set(source ${out_dir}/${stem}.gen.cpp)
  set(depfile ${out_dir}/${stem}.d)
  add_custom_command(
    OUTPUT ${header} ${source}
    COMMAND ${dslc} ${spec_abs} --header ${header} --source ${source} --depfile ${depfile}
    DEPENDS ${dslc} ${spec_abs}
    DEPFILE ${depfile}
    COMMENT "dslc ${stem}.space"
    VERBATIM)
  if(TARGET ${target})
    target_sources(${target} PRIVATE ${source} ${header})
  else()
    add_library(${target} STATIC ${source} ${header})
  endif()
  target_include_directories(${target} PUBLIC ${out_dir})
  target_link_libraries(${target} PUBLIC ${runtime})
endfunction()
