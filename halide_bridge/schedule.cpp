#include "schedule.h"

#include <algorithm>
#include <set>

namespace candor::halide_bridge {

namespace {

template <typename E>
struct NameTable {
  std::vector<std::pair<E, const char*>> rows;
  std::string name(E e) const {
    for (const auto& [v, n] : rows)
      if (v == e) return n;
    throw BridgeError("unnamed enum value");
  }
  E value(const std::string& s, const char* what) const {
    for (const auto& [v, n] : rows)
      if (s == n) return v;
    throw BridgeError(std::string("unknown ") + what + " '" + s + "'");
  }
};

const NameTable<LoopAnnotation> kAnnotations{{{LoopAnnotation::Serial, "serial"},
                                              {LoopAnnotation::Parallel, "parallel"},
                                              {LoopAnnotation::Vectorized, "vectorized"},
                                              {LoopAnnotation::Unrolled, "unrolled"},
                                              {LoopAnnotation::GpuBlock, "gpu_block"},
                                              {LoopAnnotation::GpuThread, "gpu_thread"}}};

// Names are the C++ enumerator names, so the printer can use them verbatim.
const NameTable<Halide::TailStrategy> kTails{{{Halide::TailStrategy::RoundUp, "RoundUp"},
                                              {Halide::TailStrategy::GuardWithIf, "GuardWithIf"},
                                              {Halide::TailStrategy::Predicate, "Predicate"},
                                              {Halide::TailStrategy::PredicateLoads, "PredicateLoads"},
                                              {Halide::TailStrategy::PredicateStores, "PredicateStores"},
                                              {Halide::TailStrategy::ShiftInwards, "ShiftInwards"},
                                              {Halide::TailStrategy::Auto, "Auto"}}};

const NameTable<Halide::MemoryType> kMemory{{{Halide::MemoryType::Auto, "Auto"},
                                             {Halide::MemoryType::Heap, "Heap"},
                                             {Halide::MemoryType::Stack, "Stack"},
                                             {Halide::MemoryType::Register, "Register"},
                                             {Halide::MemoryType::GPUShared, "GPUShared"},
                                             {Halide::MemoryType::GPUTexture, "GPUTexture"},
                                             {Halide::MemoryType::LockedCache, "LockedCache"},
                                             {Halide::MemoryType::VTCM, "VTCM"},
                                             {Halide::MemoryType::AMXTile, "AMXTile"}}};

std::string stage_label(const StageInfo& s) {
  return s.index == 0 ? s.func : s.func + ".update(" + std::to_string(s.index - 1) + ")";
}

}  // namespace

std::string to_string(LoopAnnotation a) { return kAnnotations.name(a); }
std::string to_string(Halide::TailStrategy t) { return kTails.name(t); }
std::string to_string(Halide::MemoryType m) { return kMemory.name(m); }
LoopAnnotation loop_annotation_from_string(const std::string& s) {
  return kAnnotations.value(s, "loop annotation");
}
Halide::TailStrategy tail_strategy_from_string(const std::string& s) {
  return kTails.value(s, "tail strategy");
}
Halide::MemoryType memory_type_from_string(const std::string& s) {
  return kMemory.value(s, "memory type");
}

Split make_split(const std::string& var, int factor, Halide::TailStrategy tail) {
  return Split{var, var + "_o", var + "_i", factor, tail};
}

Schedule root_schedule(const KernelDescription& kd) {
  Schedule s;
  for (const FuncInfo& f : kd.funcs)
    s.funcs[f.name].compute = f.is_input_alias ? Location::inlined() : Location::root();
  return s;
}

Schedule reference_schedule(const KernelDescription& kd, int64_t max_buffer_bytes) {
  Schedule s = root_schedule(kd);
  for (const FuncInfo& f : kd.funcs) {
    const double bytes = double(f.points()) * f.bytes_per_point;
    if (f.is_input_alias || (f.can_inline && bytes > double(max_buffer_bytes))) {
      s.funcs.erase(f.name);  // inline
      continue;
    }
    FuncSchedule& fs = s.funcs[f.name];
    fs.stages.resize(f.stages.size());
    for (const StageInfo& st : f.stages) {
      // Halide's default order is innermost first: the outermost loop is the last.
      if (st.loops.empty()) continue;
      const LoopInfo& outer = st.loops.back();
      if (!outer.is_rvar && outer.is_pure && outer.extent > 1)
        fs.stages[st.index].annotations[outer.var] = LoopAnnotation::Parallel;
    }
  }
  return s;
}

std::vector<ScheduledLoop> scheduled_loops(const StageInfo& stage, const StageSchedule& s) {
  std::vector<ScheduledLoop> loops;
  for (const LoopInfo& l : stage.loops)
    loops.push_back(ScheduledLoop{l.var, l.is_rvar, l.is_pure, false, l.extent, LoopAnnotation::Serial,
                                  l.arg_index, l.rvar_index, l.same_in_halide, int(loops.size())});
  auto find = [&](const std::string& var) {
    return std::find_if(loops.begin(), loops.end(),
                        [&](const ScheduledLoop& l) { return l.var == var; });
  };
  for (const Split& sp : s.splits) {
    auto it = find(sp.var);
    if (it == loops.end())
      throw BridgeError("schedule of " + stage_label(stage) + ": split of unknown loop '" + sp.var + "'");
    if (sp.factor < 1)
      throw BridgeError("schedule of " + stage_label(stage) + ": split of '" + sp.var +
                        "' has factor " + std::to_string(sp.factor));
    if (find(sp.outer) != loops.end() || find(sp.inner) != loops.end() || sp.outer == sp.inner)
      throw BridgeError("schedule of " + stage_label(stage) + ": split of '" + sp.var +
                        "' reuses an existing loop name");
    ScheduledLoop outer = *it, inner = *it;
    outer.var = sp.outer;
    outer.extent = (it->extent + sp.factor - 1) / sp.factor;
    // Splitting a loop of constant extent leaves a constant number of outer iterations.
    outer.constant_extent = it->constant_extent;
    outer.arg_index = outer.rvar_index = inner.arg_index = inner.rvar_index = -1;
    outer.same_in_halide = inner.same_in_halide = true;
    inner.var = sp.inner;
    inner.extent = sp.factor;
    inner.constant_extent = true;
    *it = inner;
    loops.insert(it + 1, outer);
  }
  if (!s.order.empty()) {
    std::set<std::string> names(s.order.begin(), s.order.end());
    if (names.size() != s.order.size() || s.order.size() != loops.size())
      throw BridgeError("schedule of " + stage_label(stage) +
                        ": loop order must list every loop exactly once");
    std::vector<ScheduledLoop> ordered;
    for (const std::string& v : s.order) {
      auto it = find(v);
      if (it == loops.end())
        throw BridgeError("schedule of " + stage_label(stage) + ": loop order names unknown loop '" + v + "'");
      ordered.push_back(*it);
    }
    loops = ordered;
  }
  for (const auto& [var, a] : s.annotations) {
    auto it = find(var);
    if (it == loops.end())
      throw BridgeError("schedule of " + stage_label(stage) + ": " + to_string(a) +
                        " names unknown loop '" + var + "'");
    it->annotation = a;
  }
  return loops;
}

void to_json(nlohmann::json& j, const Split& s) {
  j = nlohmann::json{{"var", s.var}, {"outer", s.outer}, {"inner", s.inner},
                     {"factor", s.factor}, {"tail", to_string(s.tail)}};
}

void to_json(nlohmann::json& j, const StageSchedule& s) {
  nlohmann::json ann = nlohmann::json::object();
  for (const auto& [v, a] : s.annotations) ann[v] = to_string(a);
  j = nlohmann::json{{"splits", s.splits}, {"order", s.order}, {"annotations", ann}};
}

void to_json(nlohmann::json& j, const Location& l) {
  switch (l.kind) {
    case Location::Kind::Inline: j = "inline"; return;
    case Location::Kind::Root: j = "root"; return;
    case Location::Kind::At: j = nlohmann::json{{"func", l.func}, {"stage", l.stage}, {"var", l.var}}; return;
  }
}

void to_json(nlohmann::json& j, const FuncSchedule& f) {
  j = nlohmann::json{{"compute", f.compute}, {"memory", to_string(f.memory)}, {"stages", f.stages}};
  if (f.store) j["store"] = *f.store;
}

void to_json(nlohmann::json& j, const Schedule& s) { j = nlohmann::json{{"funcs", s.funcs}}; }

}  // namespace candor::halide_bridge
