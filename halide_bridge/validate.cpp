#include "validate.h"

#include <algorithm>
#include <functional>
#include <set>

#include "directives.h"

namespace candor::halide_bridge {

namespace {

std::string stage_label(const std::string& func, int stage) {
  return stage == 0 ? func : func + ".update(" + std::to_string(stage - 1) + ")";
}

StageSchedule stage_schedule(const Schedule& s, const std::string& func, int stage) {
  auto it = s.funcs.find(func);
  if (it == s.funcs.end() || stage >= int(it->second.stages.size())) return {};
  return it->second.stages[stage];
}

std::vector<ScheduledLoop> loops_of(const Schedule& s, const KernelDescription& kd, const std::string& func,
                                    int stage) {
  return scheduled_loops(kd.func(func).stages.at(stage), stage_schedule(s, func, stage));
}

int loop_index(const std::vector<ScheduledLoop>& loops, const std::string& var) {
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i].var == var) return int(i);
  return -1;
}

Location compute_of(const Schedule& s, const FuncInfo& f) {
  auto it = s.funcs.find(f.name);
  if (it != s.funcs.end()) return it->second.compute;
  return f.is_output ? Location::root() : Location::inlined();
}

Location store_of(const Schedule& s, const FuncInfo& f) {
  auto it = s.funcs.find(f.name);
  if (it != s.funcs.end() && it->second.store) return *it->second.store;
  return compute_of(s, f);
}

class Checker {
 public:
  Checker(const Schedule& s, const KernelDescription& kd, const Halide::Target& t, const GpuLimits& l)
      : s_(s), kd_(kd), target_(t), limits_(l) {}

  std::vector<std::string> run() {
    try {
      lower(s_, kd_);  // names of Funcs, stages and loops; splits; loop orders
    } catch (const BridgeError& e) {
      return {e.what()};
    }
    for (const FuncInfo& f : kd_.funcs) {
      check_location(f);
      for (const StageInfo& st : f.stages) check_stage(f, st);
    }
    if (target_.has_gpu_feature()) check_shared_memory();
    return problems_;
  }

 private:
  const Schedule& s_;
  const KernelDescription& kd_;
  Halide::Target target_;
  GpuLimits limits_;
  std::vector<std::string> problems_;

  void problem(std::string m) { problems_.push_back(std::move(m)); }

  size_t position(const std::string& func) const { return size_t(kd_.find_func(func) - kd_.funcs.data()); }

  // The stages whose loop nests evaluate `f`: its readers, with inlined readers replaced
  // by their own readers.
  std::set<std::pair<std::string, int>> use_stages(const std::string& f) const {
    std::set<std::pair<std::string, int>> r;
    for (const Edge* e : kd_.edges_from(f)) {
      const FuncInfo& c = kd_.func(e->consumer);
      if (compute_of(s_, c).kind == Location::Kind::Inline) {
        auto inner = use_stages(c.name);
        r.insert(inner.begin(), inner.end());
      } else {
        r.insert({e->consumer, e->consumer_stage});
      }
    }
    return r;
  }

  void check_location(const FuncInfo& f) {
    const Location c = compute_of(s_, f);
    auto fs = s_.funcs.find(f.name);
    if (!f.is_output && !f.can_inline && fs == s_.funcs.end()) {
      problem("Func '" + f.name + "' has update definitions and must be given a compute location");
      return;
    }
    if (f.is_input_alias && c.kind != Location::Kind::Inline)
      problem("Func '" + f.name + "' is the input's own Func; it must stay inline (Halide 14 miscompiles some "
              "schedules of it)");
    if (c.kind == Location::Kind::Inline) {
      if (!f.can_inline) problem("Func '" + f.name + "' cannot be inlined (it has update definitions or is an output)");
      if (fs != s_.funcs.end()) {
        for (const StageSchedule& st : fs->second.stages)
          if (!(st == StageSchedule{}))
            problem("Func '" + f.name + "' is inlined, so it cannot have loop schedules");
        if (fs->second.store) problem("Func '" + f.name + "' is inlined, so it cannot have a store location");
        if (fs->second.memory != Halide::MemoryType::Auto)
          problem("Func '" + f.name + "' is inlined, so it cannot have a memory type");
      }
      return;
    }
    const Location st = store_of(s_, f);
    if (c.kind == Location::Kind::Root) {
      if (st.kind != Location::Kind::Root) problem("Func '" + f.name + "' is computed at the root, so it must be stored there");
      return;
    }
    // compute_at(c.func, c.var)
    const FuncInfo* at = kd_.find_func(c.func);
    if (!at || position(c.func) <= position(f.name)) {
      problem("Func '" + f.name + "' is computed at a loop of '" + c.func + "', which does not consume it");
      return;
    }
    if (compute_of(s_, *at).kind == Location::Kind::Inline) {
      problem("Func '" + f.name + "' is computed at a loop of '" + c.func + "', which is inlined");
      return;
    }
    // Every stage reading it runs inside the compute loop: the stage it is computed in, a
    // Func computed in that stage at the same loop or one further in, or a Func computed
    // inside such a Func, and so on (Adams et al.'s nests: gray inside ratio's tile, ratio
    // inside the output's).
    const auto uses = use_stages(f.name);
    const auto host_loops = loops_of(s_, kd_, c.func, c.stage);
    auto inside = [&](std::pair<std::string, int> use) {
      // Each step moves to a Func computed at a consumer: a valid nest ends within this many.
      for (size_t step = 0; step <= kd_.funcs.size(); ++step) {
        if (use == std::make_pair(c.func, c.stage)) return true;
        const Location u = compute_of(s_, kd_.func(use.first));
        if (u.kind != Location::Kind::At) return false;
        if (u.func == c.func && u.stage == c.stage) return loop_index(host_loops, u.var) <= loop_index(host_loops, c.var);
        use = {u.func, u.stage};
      }
      return false;
    };
    if (uses.empty() || !std::all_of(uses.begin(), uses.end(), inside)) {
      std::string readers;
      for (const auto& [fn, sidx] : uses) readers += (readers.empty() ? "" : ", ") + stage_label(fn, sidx);
      problem("Func '" + f.name + "' is computed inside " + stage_label(c.func, c.stage) +
              ", but it is read by " + (readers.empty() ? std::string("no stage") : readers) +
              " (every reading stage must be that one or computed inside it, at the same loop or further in)");
      return;
    }
    if (const std::string l = sliding_over_same_dimension(f, c, st); !l.empty())
      problem("Func '" + f.name + "' is stored outside loop '" + l + "', which splits the same dimension as its compute loop '" +
              c.var + "' or another loop the window crosses (Halide 14 slides such windows wrongly); store it at or inside '" + l + "'");
    if (const std::string p = parallel_between(f); !p.empty())
      problem("Func '" + f.name + "' is stored outside " + p + " but computed inside it (a race)");
    if (st.kind == Location::Kind::At) {
      const auto loops = loops_of(s_, kd_, c.func, c.stage);
      if (st.func != c.func || st.stage != c.stage) {
        problem("Func '" + f.name + "' must be stored at a loop of " + stage_label(c.func, c.stage) +
                " (where it is computed) or at the root");
      } else if (loop_index(loops, st.var) < loop_index(loops, c.var)) {
        problem("Func '" + f.name + "' is stored at loop '" + st.var + "', inside its compute loop '" + c.var + "'");
      }
    } else if (st.kind == Location::Kind::Inline) {
      problem("Func '" + f.name + "' cannot be stored inline");
    }
  }

  // A sliding window (storage coarser than computation) across two loops that come from one
  // dimension, the compute loop counting as crossed: Halide 14 gives wrong results for it
  // (found by random testing: box_blur, store_at(blur_y, y_i) with compute_at(blur_y, x_o_i)
  // inside x_o_o; non_local_means, store_root(patch_blur_y) with compute_at(patch_dist, dx_o)
  // inside x_o_i and x_o_o). Returns the first such loop, or "".
  std::string sliding_over_same_dimension(const FuncInfo& f, const Location& c, const Location& st) const {
    (void)f;
    if (st.kind == Location::Kind::At && (st.func != c.func || st.stage != c.stage)) return "";
    const auto loops = loops_of(s_, kd_, c.func, c.stage);
    const int ci = loop_index(loops, c.var);
    const int si = st.kind == Location::Kind::At ? loop_index(loops, st.var) : int(loops.size());
    if (ci < 0) return "";
    std::set<int> crossed = {loops[ci].origin};
    for (int i = ci + 1; i < si && i < int(loops.size()); ++i)
      if (!crossed.insert(loops[i].origin).second) return loops[i].var;
    return "";
  }

  // The first parallel loop that encloses where `f` is computed but not where it is
  // stored, as text; empty if none.
  std::string parallel_between(const FuncInfo& f) const {
    const Location st = store_of(s_, f);
    Location at = compute_of(s_, f);
    while (at.kind == Location::Kind::At) {
      const auto loops = loops_of(s_, kd_, at.func, at.stage);
      const int stop = (st.kind == Location::Kind::At && st.func == at.func && st.stage == at.stage)
                           ? loop_index(loops, st.var)
                           : int(loops.size());
      for (int i = loop_index(loops, at.var); i < stop && i >= 0; ++i)
        if (loops[i].annotation == LoopAnnotation::Parallel || loops[i].annotation == LoopAnnotation::GpuBlock ||
            loops[i].annotation == LoopAnnotation::GpuThread)
          return "the " + to_string(loops[i].annotation) + " loop '" + loops[i].var + "' of " +
                 stage_label(at.func, at.stage);
      if (stop < int(loops.size())) return "";
      if (st.kind != Location::Kind::Root) return "";
      at = compute_of(s_, kd_.func(at.func));  // stored at the root: every enclosing loop counts
    }
    return "";
  }

  // Is stage (func, stage) evaluated inside a GPU kernel launched by a consumer? Sets
  // `in_thread` when it is inside a consumer's GPU thread loop.
  bool inside_kernel(const FuncInfo& f, bool& in_thread) const {
    in_thread = false;
    const Location c = compute_of(s_, f);
    if (c.kind != Location::Kind::At) return false;
    const auto loops = loops_of(s_, kd_, c.func, c.stage);
    const int at = loop_index(loops, c.var);
    bool in_block = false;
    for (int i = at; i < int(loops.size()); ++i) {
      if (loops[i].annotation == LoopAnnotation::GpuBlock) in_block = true;
      if (loops[i].annotation == LoopAnnotation::GpuThread) in_thread = true;
    }
    bool outer_thread = false;
    const bool outer = inside_kernel(kd_.func(c.func), outer_thread);
    in_thread = in_thread || outer_thread;
    return in_block || outer;
  }

  void check_stage(const FuncInfo& f, const StageInfo& st) {
    const StageSchedule ss = stage_schedule(s_, f.name, st.index);
    const std::string label = "stage " + stage_label(f.name, st.index);
    const auto loops = scheduled_loops(st, ss);
    int vectorized = 0;
    for (const ScheduledLoop& l : loops) {
      if ((l.annotation == LoopAnnotation::Vectorized || l.annotation == LoopAnnotation::Unrolled) &&
          !l.constant_extent)
        problem(label + ": loop '" + l.var + "' is " + to_string(l.annotation) +
                " but its extent is not a constant (split it first)");
      if ((l.annotation == LoopAnnotation::Vectorized || l.annotation == LoopAnnotation::Parallel ||
           l.annotation == LoopAnnotation::GpuBlock || l.annotation == LoopAnnotation::GpuThread) &&
          !l.is_pure)
        problem(label + ": loop '" + l.var + "' runs a reduction in order, so it cannot be " + to_string(l.annotation));
      if (l.annotation == LoopAnnotation::Vectorized) ++vectorized;
    }
    if (vectorized > 1) problem(label + ": more than one vectorized loop");
    // Halide 14 rounds an update's splits up without computing its producers over the
    // rounded region: the extra points read garbage, which is harmless unless it becomes an
    // address (bilateral_grid's splat then stores far outside the grid).
    if (st.index > 0 && st.non_affine_addresses)
      for (const Split& sp : ss.splits)
        if (sp.tail != Halide::TailStrategy::GuardWithIf)
          problem(label + ": it stores or loads at non-affine addresses, so split '" + sp.var +
                  "' must use TailStrategy::GuardWithIf (a rounded-up tail reads uncomputed values and "
                  "uses them as addresses)");

    // Reordering loops of a reduction that must run in order would change the result.
    auto serial_rvars = [](const std::vector<ScheduledLoop>& ls) {
      std::vector<std::string> r;
      for (const ScheduledLoop& l : ls)
        if (l.is_rvar && !l.is_pure) r.push_back(l.var);
      return r;
    };
    StageSchedule unordered = ss;
    unordered.order.clear();
    if (serial_rvars(loops) != serial_rvars(scheduled_loops(st, unordered)))
      problem(label + ": the reduction loops are reordered, which changes the result");

    if (!target_.has_gpu_feature()) {
      for (const ScheduledLoop& l : loops)
        if (l.annotation == LoopAnnotation::GpuBlock || l.annotation == LoopAnnotation::GpuThread)
          problem(label + ": loop '" + l.var + "' is a GPU loop but the target " + target_.to_string() +
                  " has no GPU");
      auto fs = s_.funcs.find(f.name);
      if (st.index == 0 && fs != s_.funcs.end() &&
          (fs->second.memory == Halide::MemoryType::GPUShared || fs->second.memory == Halide::MemoryType::GPUTexture))
        problem("Func '" + f.name + "' is stored in GPU memory but the target has no GPU");
      return;
    }
    if (compute_of(s_, f).kind == Location::Kind::Inline) return;
    check_gpu_stage(f, label, loops);
  }

  void check_gpu_stage(const FuncInfo& f, const std::string& label, const std::vector<ScheduledLoop>& loops) {
    int innermost_block = -1, outermost_thread = -1, blocks = 0, threads = 0;
    int64_t thread_count = 1;
    std::string thread_text;
    for (int i = 0; i < int(loops.size()); ++i) {
      const ScheduledLoop& l = loops[i];
      if (l.annotation == LoopAnnotation::GpuBlock) {
        ++blocks;
        if (innermost_block < 0) innermost_block = i;
      } else if (l.annotation == LoopAnnotation::GpuThread) {
        ++threads;
        outermost_thread = i;
        if (!l.constant_extent)
          problem(label + ": GPU thread loop '" + l.var + "' must have a constant extent (split it first)");
        thread_count *= l.extent;
        thread_text += (thread_text.empty() ? "" : " x ") + std::to_string(l.extent);
      } else if (l.annotation == LoopAnnotation::Parallel) {
        problem(label + ": loop '" + l.var + "' is parallel in a GPU schedule; use gpu_blocks");
      }
    }
    if (blocks > limits_.max_block_dims)
      problem(label + ": " + std::to_string(blocks) + " GPU block loops (at most " +
              std::to_string(limits_.max_block_dims) + ")");
    if (threads > limits_.max_thread_dims)
      problem(label + ": " + std::to_string(threads) + " GPU thread loops (at most " +
              std::to_string(limits_.max_thread_dims) + ")");
    if (thread_count > limits_.max_threads_per_block)
      problem(label + ": " + thread_text + " = " + std::to_string(thread_count) +
              " GPU threads per block exceeds the limit of " + std::to_string(limits_.max_threads_per_block));
    if (blocks > 0 && threads > 0 && outermost_thread > innermost_block)
      problem(label + ": GPU thread loop '" + loops[outermost_thread].var + "' is outside GPU block loop '" +
              loops[innermost_block].var + "'; thread loops must be nested inside block loops");
    bool in_thread = false;
    const bool in_kernel = inside_kernel(f, in_thread);
    if (in_kernel && blocks > 0)
      problem(label + ": GPU block loops inside another GPU kernel (the Func is computed inside a GPU block loop)");
    if (in_thread && threads > 0)
      problem(label + ": GPU thread loops nested inside a consumer's GPU thread loop");
    if (!in_kernel && threads > 0 && blocks == 0)
      problem(label + ": GPU thread loops without GPU block loops around them");
  }

  void check_shared_memory() {
    // Funcs stored inside a kernel but outside its thread loops live in shared memory;
    // add them up per kernel (the root-level Func that launches it).
    std::map<std::string, int64_t> per_kernel;
    std::map<std::string, std::string> members;
    for (const FuncInfo& f : kd_.funcs) {
      const Location st = store_of(s_, f);
      if (st.kind != Location::Kind::At) continue;
      bool in_thread = false;
      if (!inside_kernel(f, in_thread) || in_thread) continue;
      const int64_t bytes = estimated_allocation_bytes(s_, kd_, f.name);
      if (bytes < 0) continue;
      std::string root = st.func;
      while (compute_of(s_, kd_.func(root)).kind == Location::Kind::At) root = compute_of(s_, kd_.func(root)).func;
      per_kernel[root] += bytes;
      members[root] += (members[root].empty() ? "" : ", ") + f.name + " (" + std::to_string(bytes) + " B)";
    }
    for (const auto& [root, bytes] : per_kernel)
      if (bytes > limits_.max_shared_bytes)
        problem("GPU kernel of '" + root + "' needs about " + std::to_string(bytes) +
                " bytes of shared memory for " + members[root] + ", over the limit of " +
                std::to_string(limits_.max_shared_bytes));
  }
};

}  // namespace

int64_t estimated_allocation_bytes(const Schedule& schedule, const KernelDescription& kd,
                                   const std::string& producer) {
  const FuncInfo& p = kd.func(producer);
  const Location st = store_of(schedule, p);
  if (st.kind != Location::Kind::At) return -1;
  const Edge* edge = nullptr;
  for (const Edge* e : kd.edges_into(st.func, st.stage))
    if (e->producer == producer) edge = e;
  if (!edge) return -1;
  const StageInfo& stage = kd.func(st.func).stages.at(st.stage);
  const auto loops = scheduled_loops(stage, stage_schedule(schedule, st.func, st.stage));
  const int at = loop_index(loops, st.var);
  // Iterations of each original consumer loop inside the store loop.
  std::vector<int64_t> span(stage.loops.size(), 1);
  for (int i = 0; i < at; ++i) span[loops[i].origin] *= loops[i].extent;
  int64_t points = 1;
  for (size_t d = 0; d < edge->footprint.size(); ++d) {
    const AccessDim& a = edge->footprint[d];
    int64_t extent;
    if (!a.affine) {
      extent = a.width();
    } else {
      Rational r(a.width());
      for (size_t i = 0; i < span.size(); ++i) {
        Rational c = a.coeffs[i];
        if (c.num < 0) c = Rational(-c.num, c.den);
        r = r + c * Rational(span[i] - 1);
      }
      extent = r.ceil();
    }
    extent = std::min(extent, p.region.at(d).extent());
    points *= std::max<int64_t>(extent, 1);
  }
  return points * p.bytes_per_point;
}

std::vector<std::string> schedule_problems(const Schedule& schedule, const KernelDescription& kd,
                                           const Halide::Target& target, const GpuLimits& limits) {
  return Checker(schedule, kd, target, limits).run();
}

std::vector<std::string> missing_decisions(const Schedule& schedule, const KernelDescription& kd) {
  std::vector<std::string> missing;
  for (const FuncInfo& f : kd.funcs) {
    auto it = schedule.funcs.find(f.name);
    if (it == schedule.funcs.end()) {
      if (!f.is_input_alias) missing.push_back("Func '" + f.name + "' is not scheduled (funcs." + f.name + " is missing)");
      continue;
    }
    const FuncSchedule& fs = it->second;
    if (fs.compute.kind == Location::Kind::Inline || fs.stages.size() == f.stages.size()) continue;
    missing.push_back("funcs." + f.name + ".stages: " + std::to_string(fs.stages.size()) + " stage schedule" +
                      (fs.stages.size() == 1 ? "" : "s") + " for a Func of " + std::to_string(f.stages.size()) +
                      " stage" + (f.stages.size() == 1 ? "" : "s"));
  }
  return missing;
}

void validate_schedule(const Schedule& schedule, const KernelDescription& kd, const Halide::Target& target,
                       const GpuLimits& limits) {
  auto problems = schedule_problems(schedule, kd, target, limits);
  if (problems.empty()) return;
  std::string m = "invalid schedule:";
  for (const std::string& p : problems) m += "\n  " + p;
  throw BridgeError(m);
}

}  // namespace candor::halide_bridge
