// Stable names for the Funcs and loops of a pipeline. Halide makes names unique per
// process ("blur" becomes "blur$1" the second time an app is built; unnamed Funcs, Vars
// and RDoms get counters), yet a schedule must apply to every fresh instance of an app.
// Canonical names depend only on the pipeline's structure and the names the author
// chose, so they are equal across instances.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <Halide.h>

namespace candor::halide_bridge {

struct PipelineNames {
  std::vector<std::string> order;                                 // canonical, first-visit order
  std::map<std::string, std::string> canonical;                   // Halide name -> canonical
  std::map<std::string, Halide::Internal::Function> by_canonical;  // canonical -> Function
};

// Visits the call graph depth-first from the outputs, callees in order of first call.
PipelineNames pipeline_names(const std::vector<Halide::Internal::Function>& outputs);

// Canonical names of a Function's pure variables, by argument position.
std::vector<std::string> canonical_args(const Halide::Internal::Function& f);

// Canonical name of an RDom variable: "k$x" -> "k_x", "r42$y" -> "r_y".
std::string canonical_rvar(const std::string& halide_name);

}  // namespace candor::halide_bridge
