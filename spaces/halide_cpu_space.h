// The Halide CPU space (halide_cpu.space) instantiated on one pipeline: objects and facts
// come from the kernel description; a candidate reads back as a ScheduleView (for the cost
// model and the lower bound) and, once complete, as a halide_bridge::Schedule.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "halide_bridge/kernel_description.h"
#include "halide_bridge/schedule.h"
#include "halide_cpu.gen.h"
#include "models/halide/schedule_view.h"

namespace candor {

class HalideCpuSpace : public spaces::halide_cpu::GeneratedSpace {
 public:
  explicit HalideCpuSpace(halide_bridge::KernelDescription kernel);

  const halide_bridge::KernelDescription& kernel() const { return kernel_; }

  // A vector loop's inner band of up to this many native vectors is unrolled: the vectors of
  // a register tile stay in registers (conv-like reductions keep 2 to 4 along it).
  static constexpr int kUnrolledVectors = 4;

  // What c allows, choice by choice (undecided choices keep every allowed value).
  models::halide::ScheduleView view(const Candidate& c) const;
  // The schedule of a complete candidate.
  halide_bridge::Schedule to_schedule(const Candidate& c) const;

  // A value of a choice as people name it: host choices by the host Func's name ("none":
  // computed in no other Func's loops), every other choice by its value name. And back:
  // the value `label` names among those `c` still allows for `var`, or -1.
  std::string value_label(int var, int value) const;
  int value_labelled(const Candidate& c, int var, const std::string& label) const;
  // A complete candidate's decisions, (choice, value) in decision order, values by their
  // names in the space (hosts by index: the dataset's form) or, with `labels`, as value_label
  // names them (the form `candor search --pin` takes). Fixing them all in turn on the root
  // gives the same candidate back (to price it under another cost model, say).
  std::vector<std::pair<std::string, std::string>> decisions(const Candidate& c, bool labels) const;

  // The variables in the order a search should decide them: Funcs from the outputs back to
  // the inputs (as Adams et al. do: a producer's options depend on its consumer's tiling),
  // each Func's location first, then its stages' annotations and tilings, outer loops first.
  const std::vector<int>& decision_order() const { return decision_order_; }
  // Whether `var` is a tile or subtile choice (a size; every other choice shapes the
  // schedule's structure: locations, hosts, sliding, parallel, vectorize, unroll).
  bool is_tile_size(int var) const;
  // Whether `var` places a Func: its location, host or storage (sliding) choice.
  bool is_placement(int var) const;

 private:
  struct Layout;
  static std::unique_ptr<Layout> layout_of(const halide_bridge::KernelDescription& kernel);
  static void add_hosts(const halide_bridge::KernelDescription& kernel, Layout& layout);
  static void add_loop_maps(const halide_bridge::KernelDescription& kernel, Layout& layout);
  HalideCpuSpace(halide_bridge::KernelDescription kernel, std::unique_ptr<Layout> layout);

  struct StageRef {
    int func = 0;   // index in kernel().funcs
    int stage = 0;  // index in FuncInfo::stages
  };
  struct LoopRef {
    int stage_object = 0;
    int loop = 0;  // index in StageInfo::loops (innermost first)
  };
  // The loop names a stage's bands get under the candidate's tiling, emitted inner band,
  // RDom loops, middle band, outer band (the inner band is the register block each
  // reduction step updates; the middle and outer bands tile it).
  struct Bands {
    std::vector<std::string> inner, reduction, middle, outer;  // innermost first
    halide_bridge::StageSchedule schedule;
  };
  Bands bands(const Candidate& c, int stage_object) const;
  // Does the stage read an input buffer, directly or through Funcs c inlines?
  bool reads_input(const Candidate& c, const std::string& func, int stage) const;
  // Is another Func computed in the loops of Func `func` (at its tile or subtile level)?
  bool hosts_a_func(const Candidate& c, int func) const;
  int64_t tile_value(const Candidate& c, int loop_object, bool subtile) const;
  // The position in kernel().funcs of the host a value of a host choice names (-1: none).
  int host_position(int host_var, int value) const;

  halide_bridge::KernelDescription kernel_;
  std::vector<StageRef> stage_refs_;
  std::vector<LoopRef> loop_refs_;
  std::vector<std::vector<int>> func_stage_objects_;  // func -> stage objects
  std::vector<std::vector<int>> stage_loop_objects_;  // stage object -> loop objects
  std::vector<int> decision_order_;
};

}  // namespace candor
