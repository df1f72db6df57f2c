// Primitive scheduling directives: the single code path between a Schedule and Halide.
// `lower` turns a Schedule into directives; `apply_directives` executes them on Funcs and
// `print_directives` renders the very same list as Halide C++ source, one statement per
// directive, so the applied and the printed schedule cannot disagree.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <Halide.h>

#include "kernel_description.h"
#include "schedule.h"

namespace candor::halide_bridge {

// A loop of a stage. Loops of the definition are resolved in Halide by position
// (Func::args, Func::rvars), since their Halide names can differ between instances;
// loops made by splits carry the name given to Halide.
struct VarRef {
  std::string name;  // canonical
  bool is_rvar = false;
  int arg_index = -1;
  int rvar_index = -1;
  bool same_in_halide = true;  // `name` is also the Halide name
  bool operator==(const VarRef& o) const {
    return name == o.name && is_rvar == o.is_rvar && arg_index == o.arg_index && rvar_index == o.rvar_index;
  }
};

struct Directive {
  enum class Op {
    ComputeInline,
    ComputeRoot,
    ComputeAt,  // at (at_func, at_stage, at_var)
    StoreRoot,
    StoreAt,  // at (at_func, at_stage, at_var)
    StoreIn,  // memory
    Split,    // vars = {old, outer, inner}, factor, tail
    Reorder,  // vars, innermost first
    Parallel,
    Vectorize,  // the loop's extent is the vector width
    Unroll,
    GpuBlocks,   // vars innermost first (block x, y, z)
    GpuThreads,  // vars innermost first (thread x, y, z)
  };
  Op op;
  std::string func;
  int stage = 0;
  std::vector<VarRef> vars;
  int factor = 0;
  Halide::TailStrategy tail = Halide::TailStrategy::Auto;
  std::string at_func;
  int at_stage = 0;
  VarRef at_var;
  Halide::MemoryType memory = Halide::MemoryType::Auto;
};

// Throws BridgeError when the schedule names Funcs, stages or loops the kernel lacks.
std::vector<Directive> lower(const Schedule& schedule, const KernelDescription& kd);

// Executes the directives on `funcs` (by name, as pipeline_funcs returns them). A Halide
// error is rethrown as BridgeError quoting the directive as printed.
void apply_directives(const std::vector<Directive>& directives,
                      const std::map<std::string, Halide::Func>& funcs);

// Halide C++ source: a block that expects `funcs`, a std::map<std::string, Halide::Func>
// holding every Func of the pipeline by name, to be in scope.
std::string print_directives(const std::vector<Directive>& directives);

// The text of one directive's statement (no declarations), for error messages.
std::string print_directive(const Directive& d);

// Conveniences over lower + apply / print.
void apply_schedule(const Schedule& schedule, const KernelDescription& kd,
                    const std::vector<Halide::Func>& outputs);
std::string print_schedule(const Schedule& schedule, const KernelDescription& kd);

}  // namespace candor::halide_bridge
