#include "lower_bound.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "view_util.h"

namespace candor::models::halide {

namespace hb = candor::halide_bridge;
using namespace detail;

std::vector<std::pair<std::string, double>> certain_ops(const hb::OpCounts& ops) {
  std::vector<std::pair<std::string, double>> r;
  for (const auto& [type, n] : ops.by_type) {
    if (type == "int32") continue;  // index arithmetic (assumption 2)
    // Any of the casts may be of this type: remove them all from each type (assumption 2).
    const double v = std::max(0, n - ops.cast) * kCseShare;
    if (v > 0) r.emplace_back(type, v);
  }
  return r;
}

namespace {

// certain_ops of the operations that vary along the stage's vector loop, whichever loop that
// is: those uniform along it may run once per vector (assumption 8). Per type, the fewest
// over the loops (and over no vectorization at all), so that neither the total nor the
// slowest type exceeds what any choice of vector loop leaves.
std::vector<std::pair<std::string, double>> certain_lane_ops(const hb::StageInfo& st) {
  std::map<std::string, double> fewest;
  for (const auto& [type, n] : certain_ops(st.ops)) fewest[type] = n;
  for (const hb::OpCounts& uniform : st.ops_uniform_along) {
    hb::OpCounts varying;
    varying.cast = st.ops.cast;  // any cast may be of any type (assumption 2)
    for (const auto& [type, n] : st.ops.by_type) {
      const auto u = uniform.by_type.find(type);
      varying.by_type[type] = n - (u == uniform.by_type.end() ? 0 : u->second);
    }
    std::map<std::string, double> left;
    for (const auto& [type, n] : certain_ops(varying)) left[type] = n;
    for (auto& [type, n] : fewest) n = std::min(n, left.count(type) ? left.at(type) : 0.0);
  }
  return {fewest.begin(), fewest.end()};
}

// Most cores the stage (func, stage) can occupy with its own parallel loop at the root: the
// outer band's outermost loop with more than one iteration, so any pure loop whose outer
// loops may all be tiled whole.
double own_cores(const hb::StageInfo& st, const StageView* sv, int cores) {
  if (!sv) return cores;  // not described: optimistic
  if (!may(sv->parallel, true)) return 1;
  if (st.loops.empty() || !st.loops.back().is_pure) return 1;
  int64_t most = 1;
  for (auto loop = st.loops.rbegin(); loop != st.loops.rend(); ++loop) {
    if (!loop->is_pure) continue;
    const LoopView* lv = loop_view(sv, loop->var);
    int64_t min_tile = 1, max_tile = 1;
    if (lv && !lv->tile.values.empty()) {
      min_tile = std::max<int64_t>(1, lv->tile.min());
      max_tile = lv->tile.values.back();
    }
    most = std::max(most, ceil_div(loop->extent, min_tile));
    if (max_tile < loop->extent) break;  // never one iteration: the loops inside never run in parallel alone
  }
  return double(std::min<int64_t>(cores, most));
}

class Bounder {
 public:
  Bounder(const hb::KernelDescription& kd, const ScheduleView& view, const MachineDescription& m)
      : kd_(kd), m_(m), fv_(index_view(view)) {}

  LowerBoundTerms run() {
    LowerBoundTerms t;
    for (const hb::FuncInfo& f : kd_.funcs) {
      const FuncView* fv = find(f.name);
      if (may_inline(f, fv)) continue;  // assumption 5
      for (const hb::StageInfo& st : f.stages) {
        const StageView* sv = stage_view(fv, st.index);
        StageBound b;
        b.func = f.name;
        b.stage = st.index;
        b.points = double(st.points());
        b.cores = func_cores(f.name, st.index, 0);
        // Even with vectorize fixed to NO, LLVM may auto-vectorize the loop (assumption 7).
        b.vector = !sv || may(sv->vectorize, true);
        const auto ops = certain_lane_ops(st);
        double slowest = 0, total = 0;
        for (const auto& [type, n] : ops) {
          total += n;
          slowest = std::max(slowest, n / rate(type, sv));
        }
        b.ops_per_point = total;
        const double fastest = std::max({m_.vector.max(), m_.unvectorized.max(), m_.scalar.max()});
        const double per_point = std::max(slowest, total / fastest);  // assumption 4
        b.seconds = b.points * per_point / b.cores;
        t.compute_s += b.seconds;
        if (b.seconds > 0) t.stages.push_back(b);
      }
    }
    for (const hb::InputInfo& in : kd_.inputs) {
      const auto& r = in.shape();
      if (r.empty() && !in.required.empty()) continue;
      double n = 1;
      for (const hb::Range& x : r) n *= double(std::max<int64_t>(0, x.extent()));
      t.bytes += n * in.type.bytes();
    }
    for (const std::string& o : kd_.outputs) {
      const hb::FuncInfo* f = kd_.find_func(o);
      if (f) t.bytes += double(f->points()) * f->bytes_per_point;
    }
    const double bw = m_.best_bandwidth_for(t.bytes);
    t.level = m_.bandwidth.empty() ? "" : m_.level_for(t.bytes).level;
    t.memory_s = bw > 0 ? t.bytes / bw : 0;
    // A Func that can only be computed at the root writes its whole buffer once (its region
    // at least), at best at the read bandwidth of the fastest level that holds that buffer
    // (stores are no faster than loads). These writes happen in stages that run one after
    // another (assumption 6), so they add up; they may overlap with the input and output
    // traffic, so memory is the larger of the two (assumption 9).
    double root_writes_s = 0;
    for (const hb::FuncInfo& f : kd_.funcs) {
      const FuncView* fv = find(f.name);
      if (f.is_output || !fv || fv->where.bits != (1u << static_cast<int>(Where::Root))) continue;
      const double bytes = double(f.points()) * f.bytes_per_point;
      const double buffer_bw = m_.best_bandwidth_for(bytes);
      if (buffer_bw > 0) root_writes_s += bytes / buffer_bw;
    }
    t.memory_s = std::max(t.memory_s, root_writes_s);
    return t;
  }

 private:
  const hb::KernelDescription& kd_;
  const MachineDescription& m_;
  std::map<std::string, const FuncView*> fv_;

  const FuncView* find(const std::string& name) const {
    auto it = fv_.find(name);
    return it == fv_.end() ? nullptr : it->second;
  }

  // Operations per second per core for `type` (assumptions 1 and 7): the measured SIMD
  // rate of its width; float and integer SIMD instructions of one width issue on the same
  // pipes, so 32-bit floats get the faster of the two measured 32-bit rates.
  double rate(const std::string& type, const StageView*) const {
    double r = std::max({m_.vector.for_type(type), m_.unvectorized.for_type(type), m_.scalar.for_type(type)});
    if (type.rfind("float", 0) == 0) {
      r = std::max(r, m_.vector.int32);
      for (const RegisterTileRate& t : m_.register_tile) r = std::max(r, t.float32);
      for (const RegisterTileRate& t : m_.register_tile_wide) r = std::max(r, t.float32);
    }
    return r;
  }

  // Most cores a stage of `func` can use: the best over the locations still allowed. At
  // the root, its own parallel loop; inside a host, the host's cores (or its own
  // parallel loop, when nested parallelism is allowed).
  double func_cores(const std::string& func, int stage, int depth) const {
    const hb::FuncInfo* f = kd_.find_func(func);
    if (!f) return m_.cores;
    const FuncView* fv = find(func);
    const StageView* sv = stage_view(fv, stage);
    const hb::StageInfo* st = nullptr;
    for (const hb::StageInfo& s : f->stages)
      if (s.index == stage) st = &s;
    const double own = st ? own_cores(*st, sv, m_.cores) : m_.cores;
    double best = 0;
    if (allows_where(fv, Where::Root) || allows_where(fv, Where::Inline)) best = std::max(best, own);
    const bool inside = allows_where(fv, Where::Tile) || allows_where(fv, Where::Subtile);
    if (inside) {
      if (depth > 64 || !fv || fv->hosts.empty()) {
        best = m_.cores;
      } else {
        best = std::max(best, own);
        for (const std::string& host : fv->hosts) {
          const hb::FuncInfo* c = kd_.find_func(host);
          if (c)
            for (const hb::StageInfo& cs : c->stages)
              best = std::max(best, func_cores(c->name, cs.index, depth + 1));
          else
            best = m_.cores;
        }
      }
    }
    return std::max(1.0, std::min<double>(best, m_.cores));
  }
};

}  // namespace

LowerBoundTerms lower_bound_terms(const hb::KernelDescription& kd, const ScheduleView& view,
                                  const MachineDescription& machine) {
  return Bounder(kd, view, machine).run();
}

double lower_bound_seconds(const hb::KernelDescription& kd, const ScheduleView& view,
                           const MachineDescription& machine) {
  return lower_bound_terms(kd, view, machine).seconds();
}

}  // namespace candor::models::halide
