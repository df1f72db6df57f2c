// ScheduleViews built directly from a kernel description (until the Halide CPU space
// produces them), and the equivalent halide_bridge::Schedules for benchmarking.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernel_description.h"
#include "schedule.h"
#include "schedule_view.h"

namespace candor::models::halide::testing {

namespace hb = candor::halide_bridge;

inline Allowed bits_of(std::initializer_list<int> values) {
  Allowed a;
  for (int v : values) a.bits |= 1u << v;
  return a;
}

// Powers of two up to the extent, and the extent itself.
inline std::vector<int64_t> tile_universe(int64_t extent) {
  std::vector<int64_t> v;
  for (int64_t t = 1; t < extent; t *= 2) v.push_back(t);
  v.push_back(extent);
  return v;
}

// Every choice open (as far as the kernel description's facts allow).
inline ScheduleView open_view(const hb::KernelDescription& kd) {
  ScheduleView v;
  for (const hb::FuncInfo& f : kd.funcs) {
    FuncView fv;
    fv.name = f.name;
    fv.where = f.is_output ? bits_of({int(Where::Root)})
               : f.can_inline ? bits_of({0, 1}) : bits_of({int(Where::Root)});
    if (!f.is_output && f.consumers.size() == 1) {
      fv.hosts = {f.consumers[0]};
      fv.where.bits |= bits_of({int(Where::Tile), int(Where::Subtile)}).bits;
    }
    fv.sliding = bits_of({0, 1});
    if (fv.hosts.empty()) fv.sliding = bits_of({0});
    for (const hb::StageInfo& st : f.stages) {
      StageView sv;
      sv.func = f.name;
      sv.stage = st.index;
      sv.vector_width = f.vector_width;
      const bool par = !st.loops.empty() && st.loops.back().is_pure;
      const bool vec = !st.loops.empty() && st.loops.front().is_pure && st.loops.front().extent >= f.vector_width;
      sv.parallel = par ? bits_of({0, 1}) : bits_of({0});
      sv.vectorize = vec ? bits_of({0, 1}) : bits_of({0});
      sv.unroll = bits_of({0, 1});
      for (const hb::LoopInfo& l : st.loops) {
        LoopView lv;
        lv.var = l.var;
        lv.extent = l.extent;
        lv.pure = l.is_pure;
        lv.tile.values = l.is_pure ? tile_universe(l.extent) : std::vector<int64_t>{1};
        lv.subtile.values = lv.tile.values;
        sv.loops.push_back(lv);
      }
      fv.stages.push_back(sv);
    }
    v.funcs.push_back(fv);
  }
  return v;
}

struct RootVariant {
  bool inline_all = false;  // inline every Func that can be, the rest at the root
  bool parallel = false;
  bool vectorize = false;
};

inline std::string to_string(const RootVariant& r) {
  return std::string(r.inline_all ? "inline" : "root") + (r.parallel ? "+parallel" : "+serial") +
         (r.vectorize ? "+vector" : "+scalar");
}

// Whether stage `st` of `f` gets vectorized / parallelized under a root variant.
inline bool variant_vectorizes(const hb::FuncInfo& f, const hb::StageInfo& st, const RootVariant& r) {
  return r.vectorize && !st.loops.empty() && st.loops.front().is_pure && st.loops.front().extent >= 2 * f.vector_width;
}
inline bool variant_parallel(const hb::StageInfo& st, const RootVariant& r) {
  return r.parallel && !st.loops.empty() && st.loops.back().is_pure && st.loops.back().extent > 1;
}

// A complete view (every choice fixed) of a root variant.
inline ScheduleView root_view(const hb::KernelDescription& kd, const RootVariant& r) {
  ScheduleView v = open_view(kd);
  for (size_t i = 0; i < kd.funcs.size(); ++i) {
    const hb::FuncInfo& f = kd.funcs[i];
    FuncView& fv = v.funcs[i];
    const bool inl = (r.inline_all && f.can_inline) || f.is_input_alias;
    fv.where = bits_of({int(inl ? Where::Inline : Where::Root)});
    fv.sliding = bits_of({0});
    for (size_t k = 0; k < f.stages.size(); ++k) {
      const hb::StageInfo& st = f.stages[k];
      StageView& sv = fv.stages[k];
      const bool vec = !inl && variant_vectorizes(f, st, r);
      sv.parallel = bits_of({!inl && variant_parallel(st, r) ? 1 : 0});
      sv.vectorize = bits_of({vec ? 1 : 0});
      sv.unroll = bits_of({0});
      for (size_t l = 0; l < sv.loops.size(); ++l) {
        const int64_t t = (l == 0 && vec) ? f.vector_width : 1;
        sv.loops[l].tile.values = {t};
        sv.loops[l].subtile.values = {t};
      }
    }
  }
  return v;
}

// The Halide schedule of a root variant (the same loop structure as root_view).
inline hb::Schedule root_variant_schedule(const hb::KernelDescription& kd, const RootVariant& r) {
  hb::Schedule s;
  for (const hb::FuncInfo& f : kd.funcs) {
    hb::FuncSchedule fs;
    if ((r.inline_all && f.can_inline) || f.is_input_alias) {  // input aliases stay inline
      fs.compute = hb::Location::inlined();
      s.funcs[f.name] = fs;
      continue;
    }
    fs.compute = hb::Location::root();
    for (const hb::StageInfo& st : f.stages) {
      hb::StageSchedule ss;
      std::string outer = st.loops.empty() ? "" : st.loops.back().var;
      if (variant_vectorizes(f, st, r)) {
        hb::Split sp = hb::make_split(st.loops.front().var, f.vector_width);
        ss.splits.push_back(sp);
        ss.annotations[sp.inner] = hb::LoopAnnotation::Vectorized;
        if (st.loops.size() == 1) outer = sp.outer;
      }
      if (variant_parallel(st, r) && !outer.empty()) ss.annotations[outer] = hb::LoopAnnotation::Parallel;
      fs.stages.push_back(ss);
    }
    s.funcs[f.name] = fs;
  }
  return s;
}

// Fixes one random open choice of `v` (returns false when every choice is fixed).
inline bool fix_random_choice(ScheduleView& v, std::mt19937_64& rng) {
  struct Slot {
    Allowed* bools = nullptr;
    AllowedInts* ints = nullptr;
  };
  std::vector<Slot> open;
  for (FuncView& f : v.funcs) {
    if (!f.where.fixed()) open.push_back({&f.where, nullptr});
    if (!f.sliding.fixed()) open.push_back({&f.sliding, nullptr});
    for (StageView& s : f.stages) {
      for (Allowed* a : {&s.parallel, &s.vectorize, &s.unroll})
        if (!a->fixed()) open.push_back({a, nullptr});
      for (LoopView& l : s.loops) {
        if (!l.tile.fixed()) open.push_back({nullptr, &l.tile});
        if (!l.subtile.fixed()) open.push_back({nullptr, &l.subtile});
      }
    }
  }
  if (open.empty()) return false;
  Slot s = open[rng() % open.size()];
  if (s.bools) {
    std::vector<int> vals;
    for (int i = 0; i < 32; ++i)
      if (s.bools->allows(i)) vals.push_back(i);
    // Either fix one value or remove one.
    const int pick = vals[rng() % vals.size()];
    if (vals.size() > 2 && rng() % 2)
      s.bools->bits &= ~(1u << pick);
    else
      s.bools->bits = 1u << pick;
  } else {
    auto& vals = s.ints->values;
    if (vals.size() > 2 && rng() % 2) {
      vals.erase(vals.begin() + long(rng() % vals.size()));
    } else {
      const int64_t pick = vals[rng() % vals.size()];
      vals = {pick};
    }
  }
  return true;
}

}  // namespace candor::models::halide::testing
