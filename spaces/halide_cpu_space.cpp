#include "halide_cpu_space.h"

#include <algorithm>
#include <cstdlib>

namespace candor {

namespace gen = spaces::halide_cpu;
namespace hb = halide_bridge;

// The objects of the instance and how they map back to the kernel description.
struct HalideCpuSpace::Layout {
  gen::Input input;
  std::vector<StageRef> stages;
  std::vector<LoopRef> loops;
  std::vector<std::vector<int>> func_stages;
  std::vector<int> consumer_of;
};

namespace {

// 1, the powers of two below the extent, and the extent itself.
std::vector<int64_t> tile_sizes_for(int64_t extent, bool pure) {
  std::vector<int64_t> sizes = {1};
  if (!pure) return sizes;
  for (int64_t t = 2; t < extent; t *= 2) sizes.push_back(t);
  if (extent > 1) sizes.push_back(extent);
  return sizes;
}

// The indices (in StageInfo::loops, innermost first) of a stage's pure loops, innermost
// first: the first is the vector loop, the second the loop unrolled under it.
std::vector<int> pure_loops(const hb::StageInfo& stage) {
  std::vector<int> out;
  for (int l = 0; l < static_cast<int>(stage.loops.size()); ++l)
    if (stage.loops[l].is_pure) out.push_back(l);
  return out;
}

models::halide::Allowed allowed(const Space& space, const Candidate& c, int var) {
  models::halide::Allowed a;
  for (int v : space.values(c, var)) a.bits |= 1u << v;
  return a;
}

}  // namespace

// maps_to(p, c) from the access Jacobians: producer dimension d read by the consumer's pure
// stage with a single non-zero coefficient |a| <= 1, on consumer loop c.
void HalideCpuSpace::add_loop_maps(const hb::KernelDescription& kd, Layout& out) {
  auto loop_object = [&](int func, int stage, const std::string& var) {
    for (size_t lo = 0; lo < out.loops.size(); ++lo) {
      const StageRef& sr = out.stages[out.loops[lo].stage_object];
      if (sr.func == func && sr.stage == stage &&
          kd.funcs[func].stages[stage].loops[out.loops[lo].loop].var == var) {
        return static_cast<int>(lo);
      }
    }
    return -1;
  };
  for (int f = 0; f < static_cast<int>(kd.funcs.size()); ++f) {
    const int c = out.consumer_of[f];
    if (c < 0) continue;
    const hb::FuncInfo& producer = kd.funcs[f];
    const hb::StageInfo& consumer_stage = kd.funcs[c].stages[0];
    for (const hb::Edge* e : kd.edges_from(producer.name)) {
      for (size_t d = 0; d < e->footprint.size() && d < producer.args.size(); ++d) {
        const hb::AccessDim& access = e->footprint[d];
        int along = -1, nonzero = 0;
        for (size_t j = 0; j < access.coeffs.size(); ++j) {
          if (access.coeffs[j].num == 0) continue;
          ++nonzero;
          along = static_cast<int>(j);
        }
        if (!access.affine || nonzero != 1 || std::abs(access.coeffs[along].value()) > 1) continue;
        const int lc = loop_object(c, 0, consumer_stage.loops[along].var);
        for (int s = 0; s < static_cast<int>(producer.stages.size()); ++s) {
          const int lp = loop_object(f, s, producer.args[d]);
          if (lp >= 0 && lc >= 0) out.input.maps_to.push_back({lp, lc});
        }
      }
    }
  }
}

std::unique_ptr<HalideCpuSpace::Layout> HalideCpuSpace::layout_of(const hb::KernelDescription& kd) {
  auto layout = std::make_unique<Layout>();
  Layout& out = *layout;
  gen::Input& in = out.input;
  const int nfuncs = static_cast<int>(kd.funcs.size());
  in.func_count = nfuncs;
  in.stages.assign(nfuncs, {});
  out.func_stages.assign(nfuncs, {});
  out.consumer_of.assign(nfuncs, -1);
  auto func_index = [&](const std::string& name) {
    for (int i = 0; i < nfuncs; ++i)
      if (kd.funcs[i].name == name) return i;
    return -1;
  };
  for (int f = 0; f < nfuncs; ++f) {
    const hb::FuncInfo& func = kd.funcs[f];
    in.func_names.push_back(func.name);
    if (func.is_output) in.is_output.push_back({f});
    if (func.can_inline) in.inlinable.push_back({f});
    if (func.is_input_alias) in.input_alias.push_back({f});
    if (func.stages.size() > 1) in.has_updates.push_back({f});
    // Attachable: one consumer Func, reading f only from its pure definition.
    if (!func.is_output && func.consumers.size() == 1) {
      int c = func_index(func.consumers[0]);
      bool pure_reads_only = c >= 0;
      for (const hb::Edge* e : kd.edges_from(func.name)) pure_reads_only &= e->consumer_stage == 0;
      if (pure_reads_only && !kd.funcs[c].stages.empty() && !kd.funcs[c].stages[0].loops.empty()) {
        out.consumer_of[f] = c;
        in.consumer.push_back({f, c});
        in.attachable.push_back({f});
      }
    }
    for (int s = 0; s < static_cast<int>(func.stages.size()); ++s) {
      const hb::StageInfo& stage = func.stages[s];
      const int so = static_cast<int>(out.stages.size());
      out.stages.push_back({f, s});
      out.func_stages[f].push_back(so);
      in.stages[f].push_back(so);
      if (s == 0) in.pure_stage.push_back({f, so});
      in.stage_names.push_back(func.name + (s ? ".update(" + std::to_string(s - 1) + ")" : ""));
      in.vector_width[{so}] = func.vector_width;
      const auto& loops = stage.loops;
      if (!loops.empty() && loops.back().is_pure) in.parallelizable.push_back({so});
      const std::vector<int> pure = pure_loops(stage);
      if (!pure.empty() && func.vector_width > 1 && loops[pure[0]].extent >= func.vector_width) {
        in.vectorizable.push_back({so});
      }
      if (pure.size() <= 1) in.single_loop.push_back({so});
      if (!pure.empty()) in.unrollable.push_back({so});
      in.loops.push_back({});
      for (int l = 0; l < static_cast<int>(loops.size()); ++l) {
        const int lo = static_cast<int>(out.loops.size());
        out.loops.push_back({so, l});
        in.loops.back().push_back(lo);
        in.loop_names.push_back(in.stage_names.back() + "." + loops[l].var);
        if (!pure.empty() && l == pure[0]) in.innermost.push_back({lo});
        if (pure.size() > 1 && l == pure[1]) in.second.push_back({lo});
        if (loops[l].is_pure) in.pure.push_back({lo});
        in.tile_sizes[{lo}] = tile_sizes_for(loops[l].extent, loops[l].is_pure);
        in.extent[{lo}] = loops[l].extent;
      }
    }
  }
  in.stage_count = static_cast<int>(out.stages.size());
  in.loop_count = static_cast<int>(out.loops.size());
  add_loop_maps(kd, out);
  return layout;
}

HalideCpuSpace::HalideCpuSpace(hb::KernelDescription kernel)
    : HalideCpuSpace(kernel, layout_of(kernel)) {}

HalideCpuSpace::HalideCpuSpace(hb::KernelDescription kernel, std::unique_ptr<Layout> layout)
    : GeneratedSpace(layout->input),
      kernel_(std::move(kernel)),
      stage_refs_(std::move(layout->stages)),
      loop_refs_(std::move(layout->loops)),
      func_stage_objects_(std::move(layout->func_stages)),
      consumer_of_(std::move(layout->consumer_of)) {
  stage_loop_objects_.assign(stage_refs_.size(), {});
  for (int lo = 0; lo < static_cast<int>(loop_refs_.size()); ++lo) {
    stage_loop_objects_[loop_refs_[lo].stage_object].push_back(lo);
  }
  // Outputs first, back to the inputs; within a stage, outer loops first.
  for (int f = static_cast<int>(kernel_.funcs.size()) - 1; f >= 0; --f) {
    decision_order_.push_back(location_ref(f).var);
    decision_order_.push_back(sliding_ref(f).var);
    for (int so : func_stage_objects_[f]) {
      decision_order_.push_back(parallel_ref(so).var);
      decision_order_.push_back(vectorize_ref(so).var);
      decision_order_.push_back(unroll_ref(so).var);
      const auto& loops = stage_loop_objects_[so];
      for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
        decision_order_.push_back(tile_ref(*it).var);
        decision_order_.push_back(subtile_ref(*it).var);
      }
    }
  }
}

int64_t HalideCpuSpace::tile_value(const Candidate& c, int loop_object, bool subtile) const {
  int var = subtile ? subtile_ref(loop_object).var : tile_ref(loop_object).var;
  return value_int(var, first_value(c, var));
}

models::halide::ScheduleView HalideCpuSpace::view(const Candidate& c) const {
  models::halide::ScheduleView out;
  for (int f = 0; f < static_cast<int>(kernel_.funcs.size()); ++f) {
    const hb::FuncInfo& info = kernel_.funcs[f];
    models::halide::FuncView fv;
    fv.name = info.name;
    fv.where = allowed(*this, c, location_ref(f).var);
    fv.sliding = allowed(*this, c, sliding_ref(f).var);
    if (consumer_of_[f] >= 0) fv.consumer = kernel_.funcs[consumer_of_[f]].name;
    for (int so : func_stage_objects_[f]) {
      const hb::StageInfo& stage = info.stages[stage_refs_[so].stage];
      models::halide::StageView sv;
      sv.func = info.name;
      sv.stage = stage.index;
      sv.vector_width = info.vector_width;
      sv.parallel = allowed(*this, c, parallel_ref(so).var);
      sv.vectorize = allowed(*this, c, vectorize_ref(so).var);
      sv.unroll = allowed(*this, c, unroll_ref(so).var);
      for (int lo : stage_loop_objects_[so]) {
        const hb::LoopInfo& loop = stage.loops[loop_refs_[lo].loop];
        models::halide::LoopView lv;
        lv.var = loop.var;
        lv.extent = loop.extent;
        lv.pure = loop.is_pure;
        for (int v : values(c, tile_ref(lo).var)) lv.tile.values.push_back(value_int(tile_ref(lo).var, v));
        for (int v : values(c, subtile_ref(lo).var)) {
          lv.subtile.values.push_back(value_int(subtile_ref(lo).var, v));
        }
        sv.loops.push_back(std::move(lv));
      }
      fv.stages.push_back(std::move(sv));
    }
    out.funcs.push_back(std::move(fv));
  }
  return out;
}

// Inlined producers are evaluated in the stage's own loops: reading the input through one
// (the input's own Func always is) reads it directly.
bool HalideCpuSpace::reads_input(const Candidate& c, const std::string& func, int stage) const {
  for (const hb::Edge* e : kernel_.edges_into(func, stage)) {
    if (e->producer_is_input) return true;
    if (e->producer == func) continue;
    const hb::FuncInfo* p = kernel_.find_func(e->producer);
    if (p && first_value(c, location_ref(int(p - kernel_.funcs.data())).var) == gen::Where::INLINE &&
        reads_input(c, p->name, 0))
      return true;
  }
  return false;
}

// A loop of extent E with tile T and subtile S: unsplit in the outer band when T = 1; else
// split by T into an outer-band loop and a T-wide loop, itself split by S into a middle-band
// loop and an S-wide inner-band loop (S = T: all of it inner; S = 1: all of it middle).
// The innermost pure loop's inner part is split again at the vector width when vectorized;
// the next pure loop's (or, unvectorized, the innermost pure loop's) inner part is unrolled.
// RDom loops are never split: they run, in their order, between the inner band and the
// middle band, so the pure loops' inner bands are the innermost loops emitted.
HalideCpuSpace::Bands HalideCpuSpace::bands(const Candidate& c, int so) const {
  Bands b;
  const StageRef ref = stage_refs_[so];
  const hb::FuncInfo& info = kernel_.funcs[ref.func];
  const hb::StageInfo& stage = info.stages[ref.stage];
  const bool vectorized = first_value(c, vectorize_ref(so).var) == gen::Bool::YES;
  const bool unrolled = first_value(c, unroll_ref(so).var) == gen::Bool::YES;
  const bool parallel = first_value(c, parallel_ref(so).var) == gen::Bool::YES;
  const std::vector<int> pure = pure_loops(stage);
  const int vector_loop = pure.empty() ? -1 : pure[0];
  const int unroll_loop = !vectorized ? vector_loop : pure.size() > 1 ? pure[1] : -1;
  const auto& loops = stage_loop_objects_[so];
  // A stage reading an input buffer directly must not compute beyond the region it is asked
  // for (a split rounded up or shifted past it reads outside the input), nor may an update at
  // non-affine (possibly data-dependent) addresses (Auto rounds an update's splits up, and the
  // extra points store at addresses made of values never computed): their splits guard their
  // tails. Unguarded Auto tails stay inside at the root when every split is exact (an update
  // rounds up) or the stage is pure (tiles shift inwards, and no tile is longer than its
  // loop); guards in vectorized and unrolled loops cost, so those keep Auto.
  bool exact = true;
  for (int lo : loops) {
    const int l = loop_refs_[lo].loop;
    const int64_t tile = tile_value(c, lo, false), subtile = tile_value(c, lo, true);
    if (tile <= 1) continue;
    const int64_t lanes = l == vector_loop && vectorized && subtile > info.vector_width ? info.vector_width : 1;
    if (stage.loops[l].extent % tile != 0 || tile % std::max<int64_t>(1, subtile) != 0 || subtile % lanes != 0)
      exact = false;
  }
  const bool at_root = first_value(c, location_ref(ref.func).var) == gen::Where::ROOT;
  const bool guard = (stage.index > 0 && stage.non_affine_addresses) ||
                     (reads_input(c, info.name, stage.index) && !(at_root && (stage.index == 0 || exact)));
  const Halide::TailStrategy tail = guard ? Halide::TailStrategy::GuardWithIf : Halide::TailStrategy::Auto;
  std::vector<int64_t> outer_trips;  // iterations of each b.outer loop
  for (size_t i = 0; i < loops.size(); ++i) {
    const int l = loop_refs_[loops[i]].loop;
    const std::string var = stage.loops[l].var;
    const int64_t tile = tile_value(c, loops[i], false), subtile = tile_value(c, loops[i], true);
    if (!stage.loops[l].is_pure) {
      b.reduction.push_back(var);
      continue;
    }
    if (tile == 1) {
      b.outer.push_back(var);
      outer_trips.push_back(stage.loops[l].extent);
      continue;
    }
    hb::Split outer = hb::make_split(var, static_cast<int>(tile), tail);
    b.schedule.splits.push_back(outer);
    b.outer.push_back(outer.outer);
    outer_trips.push_back((stage.loops[l].extent + tile - 1) / tile);
    if (subtile == 1) {
      b.middle.push_back(outer.inner);
      continue;
    }
    std::string inner = outer.inner;
    if (subtile < tile) {
      hb::Split middle = hb::make_split(outer.inner, static_cast<int>(subtile), tail);
      b.schedule.splits.push_back(middle);
      b.middle.push_back(middle.outer);
      inner = middle.inner;
    }
    if (l == vector_loop && vectorized && subtile > info.vector_width) {
      hb::Split lanes = hb::make_split(inner, info.vector_width, tail);
      b.schedule.splits.push_back(lanes);
      b.inner.push_back(lanes.inner);
      b.schedule.annotations[lanes.inner] = hb::LoopAnnotation::Vectorized;
      inner = lanes.outer;
    } else if (l == vector_loop && vectorized) {
      b.schedule.annotations[inner] = hb::LoopAnnotation::Vectorized;
    }
    b.inner.push_back(inner);
    if (unrolled && l == unroll_loop) {
      b.schedule.annotations[inner] = hb::LoopAnnotation::Unrolled;
    }
  }
  // The parallel loop is the outermost one with more than one iteration: a loop tiled
  // whole (a colour channel of 3 kept inside the tile) passes parallelism on inwards.
  for (size_t i = b.outer.size(); parallel && i-- > 0;) {
    if (outer_trips[i] > 1) {
      b.schedule.annotations[b.outer[i]] = hb::LoopAnnotation::Parallel;
      break;
    }
  }
  for (const auto* band : {&b.inner, &b.reduction, &b.middle, &b.outer}) {
    b.schedule.order.insert(b.schedule.order.end(), band->begin(), band->end());
  }
  return b;
}

hb::Schedule HalideCpuSpace::to_schedule(const Candidate& c) const {
  hb::Schedule out;
  for (int f = 0; f < static_cast<int>(kernel_.funcs.size()); ++f) {
    const hb::FuncInfo& info = kernel_.funcs[f];
    hb::FuncSchedule fs;
    const int where = first_value(c, location_ref(f).var);
    if (where == gen::Where::INLINE) {
      fs.compute = hb::Location::inlined();
      out.funcs[info.name] = fs;
      continue;
    }
    if (where == gen::Where::ROOT) {
      fs.compute = hb::Location::root();
    } else {
      // Inside the consumer's pure stage: per tile of its outer band, or of its middle band
      // (the outer band when it has no middle loops).
      const int consumer = consumer_of_[f];
      Bands cb = bands(c, func_stage_objects_[consumer][0]);
      const std::string tile_level = cb.outer.front();
      const std::string subtile_level = cb.middle.empty() ? tile_level : cb.middle.front();
      const std::string& name = kernel_.funcs[consumer].name;
      fs.compute = hb::Location::at(name, 0, where == gen::Where::TILE ? tile_level : subtile_level);
      if (first_value(c, sliding_ref(f).var) == gen::Bool::YES) {
        fs.store = where == gen::Where::TILE ? hb::Location::root() : hb::Location::at(name, 0, tile_level);
      }
    }
    for (int so : func_stage_objects_[f]) fs.stages.push_back(bands(c, so).schedule);
    out.funcs[info.name] = fs;
  }
  return out;
}

}  // namespace candor
