# candor_add_space(TARGET NAME SPEC file.space)
# Runs dslc on a .space file at build time and compiles the generated C++ into a static
# library TARGET. The generated header is written only if changed, so dependents rebuild
# only when the space really changes.
function(candor_add_space target)
  cmake_parse_arguments(ARG "" "SPEC;NAMESPACE" "" ${ARGN})
  get_filename_component(spec_abs ${ARG_SPEC} ABSOLUTE)
  get_filename_component(stem ${ARG_SPEC} NAME_WE)
  set(out_dir ${CMAKE_BINARY_DIR}/generated/spaces)
  set(header ${out_dir}/${stem}.gen.h)
  set(source ${out_dir}/${stem}.gen.cpp)
  set(depfile ${out_dir}/${stem}.d)
  add_custom_command(
    OUTPUT ${header} ${source}
    COMMAND dslc ${spec_abs} --header ${header} --source ${source} --depfile ${depfile}
    DEPENDS dslc ${spec_abs}
    DEPFILE ${depfile}
    COMMENT "dslc ${stem}.space"
    VERBATIM)
  add_library(${target} STATIC ${source} ${header})
  target_include_directories(${target} PUBLIC ${out_dir})
  target_link_libraries(${target} PUBLIC candor_runtime)
endfunction()
