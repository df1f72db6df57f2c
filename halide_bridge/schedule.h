// The schedule representation: what a search decides for every stage. It is turned into
// primitive directives (directives.h) by one function, and those directives are either
// executed on Funcs or printed as Halide C++ source by one interpreter.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <Halide.h>
#include <nlohmann/json.hpp>

#include "error.h"
#include "kernel_description.h"

namespace candor::halide_bridge {

enum class LoopAnnotation { Serial, Parallel, Vectorized, Unrolled, GpuBlock, GpuThread };

// Splits `var` into `outer` (ceil(extent / factor) iterations) and `inner` (factor).
struct Split {
  std::string var, outer, inner;
  int factor = 1;
  Halide::TailStrategy tail = Halide::TailStrategy::Auto;
  bool operator==(const Split& o) const {
    return var == o.var && outer == o.outer && inner == o.inner && factor == o.factor &&
           tail == o.tail;
  }
};

// A split with the deterministic loop names the sampler and the search use:
// x -> x_o, x_i; splitting x_i again gives x_i_o, x_i_i.
Split make_split(const std::string& var, int factor,
                 Halide::TailStrategy tail = Halide::TailStrategy::Auto);

struct StageSchedule {
  std::vector<Split> splits;  // applied in order
  // The complete loop order after the splits, innermost first; empty keeps Halide's
  // default (each split's outer loop just outside its inner loop).
  std::vector<std::string> order;
  std::map<std::string, LoopAnnotation> annotations;  // absent: serial
  bool operator==(const StageSchedule& o) const {
    return splits == o.splits && order == o.order && annotations == o.annotations;
  }
};

// Where a Func is computed or stored: inline, at the root, or inside loop `var` of
// stage `stage` of Func `func`.
struct Location {
  enum class Kind { Inline, Root, At };
  Kind kind = Kind::Inline;
  std::string func;
  int stage = 0;
  std::string var;

  static Location inlined() { return {}; }
  static Location root() { return {Kind::Root, "", 0, ""}; }
  static Location at(std::string func, int stage, std::string var) {
    return {Kind::At, std::move(func), stage, std::move(var)};
  }
  bool operator==(const Location& o) const {
    return kind == o.kind && func == o.func && stage == o.stage && var == o.var;
  }
};

struct FuncSchedule {
  Location compute = Location::root();
  std::optional<Location> store;  // unset: stored where computed
  Halide::MemoryType memory = Halide::MemoryType::Auto;
  std::vector<StageSchedule> stages;  // by stage index; missing stages keep defaults
  bool operator==(const FuncSchedule& o) const {
    return compute == o.compute && store == o.store && memory == o.memory && stages == o.stages;
  }
};

struct Schedule {
  // By Func name. A Func not listed keeps Halide's default (inlined where it can be).
  std::map<std::string, FuncSchedule> funcs;
  bool operator==(const Schedule& o) const { return funcs == o.funcs; }
};

// Every Func computed at the root, nothing else (except input aliases, which stay inline:
// see FuncInfo::is_input_alias).
Schedule root_schedule(const KernelDescription& kd);

// The reference schedule, simple enough to trust and fast enough to run on any pipeline a
// generator brings: root_schedule with each stage's outermost loop parallel where it is a
// pure variable (iterations that write disjoint points, so the result is the same), and
// inlined, where they can be, the Funcs whose root buffer would exceed `max_buffer_bytes`
// (Halide refuses buffers of 2^31 bytes or more without the large_buffers feature).
Schedule reference_schedule(const KernelDescription& kd, int64_t max_buffer_bytes = (int64_t(1) << 31) - 1);

// One loop of a stage after its splits, with its extent under the estimates.
struct ScheduledLoop {
  std::string var;
  bool is_rvar = false;
  bool is_pure = true;
  bool constant_extent = false;  // an inner loop of a split: exactly `factor` iterations
  int64_t extent = 1;            // for outer loops: ceil(parent extent / factor)
  LoopAnnotation annotation = LoopAnnotation::Serial;
  // Loops of the definition (not made by a split) are found in Halide by position.
  int arg_index = -1;
  int rvar_index = -1;
  bool same_in_halide = true;
  int origin = -1;  // index in StageInfo::loops of the loop this one was split from
};

// The loop nest of `stage` under `s`, innermost first. Throws BridgeError naming the
// stage when a split names an unknown loop or `order` is not a permutation of the loops.
std::vector<ScheduledLoop> scheduled_loops(const StageInfo& stage, const StageSchedule& s);

std::string to_string(LoopAnnotation a);
std::string to_string(Halide::TailStrategy t);
std::string to_string(Halide::MemoryType m);
LoopAnnotation loop_annotation_from_string(const std::string& s);
Halide::TailStrategy tail_strategy_from_string(const std::string& s);
Halide::MemoryType memory_type_from_string(const std::string& s);

void to_json(nlohmann::json& j, const Split& s);
void from_json(const nlohmann::json& j, Split& s);
void to_json(nlohmann::json& j, const StageSchedule& s);
void from_json(const nlohmann::json& j, StageSchedule& s);
void to_json(nlohmann::json& j, const Location& l);
void from_json(const nlohmann::json& j, Location& l);
void to_json(nlohmann::json& j, const FuncSchedule& f);
void from_json(const nlohmann::json& j, FuncSchedule& f);
void to_json(nlohmann::json& j, const Schedule& s);
void from_json(const nlohmann::json& j, Schedule& s);

}  // namespace candor::halide_bridge
