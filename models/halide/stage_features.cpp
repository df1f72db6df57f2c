#include "stage_features.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "analytic_model.h"
#include "view_util.h"

namespace candor::models::halide {

namespace hb = candor::halide_bridge;
using namespace detail;

const std::vector<std::string>& feature_names() {
  static const std::vector<std::string> names = {
#define CANDOR_FEATURE_NAME(name) #name,
      CANDOR_STAGE_FEATURES(CANDOR_FEATURE_NAME)
#undef CANDOR_FEATURE_NAME
  };
  return names;
}

const char* feature_name(Feature f) { return feature_names().at(size_t(f)).c_str(); }

double StageFeatures::get(const std::string& name) const {
  const auto& n = feature_names();
  const auto it = std::find(n.begin(), n.end(), name);
  if (it == n.end()) throw std::out_of_range("no feature named " + name);
  return values[size_t(it - n.begin())];
}

void to_json(nlohmann::json& j, const StageFeatures& f) {
  nlohmann::json values = nlohmann::json::object();
  for (int i = 0; i < kNumFeatures; ++i) values[feature_names()[size_t(i)]] = f.values[size_t(i)];
  j = {{"func", f.func}, {"stage", f.stage}, {"features", values}};
}

namespace {

using F = Feature;

double product(const std::vector<double>& v) {
  double p = 1;
  for (double x : v) p *= x;
  return p;
}

// Access pattern of one edge (one class per load, the first that applies).
F classify(const hb::Edge& e, const hb::StageInfo& st) {
  if (e.producer == e.consumer) return F::loads_self;
  if (e.data_dependent()) return F::loads_data_dependent;
  bool strided = false, wide = false;
  for (const hb::AccessDim& a : e.footprint) {
    wide = wide || a.width() > 1;
    for (const hb::Rational& c : a.coeffs)
      if (!(c.num == 0 || (c.den == 1 && (c.num == 1 || c.num == -1)))) strided = true;
  }
  if (strided) return F::loads_strided;
  auto moves = [&](size_t dim, size_t loop) {
    return dim < e.footprint.size() && loop < e.footprint[dim].coeffs.size() && e.footprint[dim].coeffs[loop].num != 0;
  };
  // The loop the space can make innermost: the innermost pure loop (RDom loops stay in
  // the outer band), or loop 0 when all are RDom loops.
  size_t inner = 0;
  while (inner < st.loops.size() && !st.loops[inner].is_pure) ++inner;
  if (inner == st.loops.size()) inner = 0;
  bool inner_moves_other = false;
  for (size_t d = 1; d < e.footprint.size(); ++d) inner_moves_other = inner_moves_other || moves(d, inner);
  if (!st.loops.empty() && !moves(0, inner) && inner_moves_other) return F::loads_transposed;
  if (wide) return F::loads_stencil;
  for (size_t l = 0; l < st.loops.size(); ++l) {
    if (st.loops[l].is_rvar) continue;
    bool any = false;
    for (size_t d = 0; d < e.footprint.size(); ++d) any = any || moves(d, l);
    if (!any) return F::loads_broadcast;
  }
  return F::loads_pointwise;
}

void algorithm_features(const hb::KernelDescription& kd, const hb::FuncInfo& f, const hb::StageInfo& st,
                        StageFeatures& r) {
  r[F::is_update] = st.index > 0;
  r[F::is_output] = f.is_output;
  r[F::can_inline] = f.can_inline;
  r[F::loops] = double(st.loops.size());
  for (const hb::LoopInfo& l : st.loops) {
    r[F::rvars] += l.is_rvar;
    r[F::serial_rvars] += l.is_rvar && !l.is_pure;
  }
  r[F::stage_points] = double(st.points());
  r[F::bytes_per_point] = f.bytes_per_point;
  r[F::natural_vector_width] = f.vector_width;
  const hb::OpCounts& o = st.ops;
  r[F::op_add] = o.add;
  r[F::op_mul] = o.mul;
  r[F::op_div] = o.div;
  r[F::op_minmax] = o.minmax;
  r[F::op_compare] = o.compare;
  r[F::op_logic] = o.logic;
  r[F::op_select] = o.select;
  r[F::op_cast] = o.cast;
  r[F::op_transcendental] = o.transcendental;
  r[F::op_intrinsic] = o.intrinsic;
  for (const auto& [type, n] : o.by_type) {
    const int bits = type_bits(type);
    const F k = type.rfind("float", 0) == 0 ? F::ops_float : bits >= 32 ? F::ops_int32 : bits == 16 ? F::ops_int16 : F::ops_int8;
    r[k] += n;
  }
  r[F::ops_total] = o.arithmetic();
  r[F::loads_func] = o.load_func;
  r[F::loads_input] = o.load_input;
  for (const hb::Edge* e : kd.edges_into(f.name, st.index)) {
    r[classify(*e, st)] += e->calls;
    double pts = 1;
    for (const hb::AccessDim& a : e->footprint) {
      r[F::footprint_width_max] = std::max(r[F::footprint_width_max], double(a.width()));
      pts *= double(std::max<int64_t>(1, a.width()));
    }
    r[F::footprint_points] += pts * (e->producer == e->consumer ? 0 : 1);
  }
}

// Bytes of one element of what `e` reads.
double element_bytes(const hb::KernelDescription& kd, const hb::Edge& e) {
  if (e.producer_is_input) {
    const hb::InputInfo* in = kd.find_input(e.producer);
    return in ? in->type.bytes() : 4;
  }
  const hb::FuncInfo* p = kd.find_func(e.producer);
  return p ? std::max(1, p->bytes_per_point) : 4;
}

// Producer bytes read by stage (func, stage) over consumer loop lengths `len`, looking
// through producers that are inlined.
double read_bytes(const hb::KernelDescription& kd, const std::string& func, int stage, const std::vector<double>& len,
                  const std::map<std::string, bool>& inlined) {
  double bytes = 0;
  std::vector<std::pair<const hb::Edge*, std::vector<double>>> todo;
  for (const hb::Edge* e : kd.edges_into(func, stage)) todo.emplace_back(e, len);
  for (size_t q = 0; q < todo.size() && q < 256; ++q) {
    const hb::Edge* e = todo[q].first;
    const auto w = access_footprint(*e, todo[q].second);
    const auto it = inlined.find(e->producer);
    if (!e->producer_is_input && e->producer != e->consumer && it != inlined.end() && it->second) {
      const hb::FuncInfo& p = kd.func(e->producer);
      std::vector<double> plen;
      for (const hb::LoopInfo& l : p.stages[0].loops)
        plen.push_back(l.arg_index >= 0 && l.arg_index < int(w.size()) ? w[size_t(l.arg_index)] : double(l.extent));
      for (const hb::Edge* e2 : kd.edges_into(p.name, 0)) todo.emplace_back(e2, plen);
      continue;
    }
    bytes += product(w) * element_bytes(kd, *e);
  }
  return bytes;
}

}  // namespace

std::vector<StageFeatures> featurize(const hb::KernelDescription& kd, const ScheduleView& view,
                                     const MachineDescription& machine) {
  return featurize(kd, view, AnalyticModel(machine).explain(kd, view));
}

std::vector<StageFeatures> featurize(const hb::KernelDescription& kd, const ScheduleView& view,
                                     const Prediction& pred) {
  std::map<std::pair<std::string, int>, const StageCost*> cost;
  std::map<std::string, bool> inlined;
  for (const hb::FuncInfo& f : kd.funcs) inlined[f.name] = true;
  for (const StageCost& c : pred.stages) {
    cost[{c.func, c.stage}] = &c;
    inlined[c.func] = false;
  }
  const auto fvs = index_view(view);

  // A Func's counts depend on its own placement (host included) and, through the tiles it
  // is computed in, on its consumers' placements: open when any of those is undecided.
  auto own_open = [&](const hb::FuncInfo& f) {
    const auto it = fvs.find(f.name);
    const FuncView* fv = it == fvs.end() ? nullptr : it->second;
    const bool at = fv && (allows_where(fv, Where::Tile) || allows_where(fv, Where::Subtile));
    return fv && (!fv->where.fixed() || (at && fv->sliding.bits != 0 && !fv->sliding.fixed()) ||
                  (at && fv->hosts.size() > 1));
  };
  std::map<std::string, bool> open;
  for (auto it = kd.funcs.rbegin(); it != kd.funcs.rend(); ++it) {
    bool o = own_open(*it);
    for (const std::string& c : it->consumers) o = o || open[c];
    open[it->name] = o;
  }

  std::vector<StageFeatures> rows;
  for (const hb::FuncInfo& f : kd.funcs) {
    const auto fit = fvs.find(f.name);
    const FuncView* fv = fit == fvs.end() ? nullptr : fit->second;
    const bool can_place_at = fv && (allows_where(fv, Where::Tile) || allows_where(fv, Where::Subtile));
    const bool placement_open = open[f.name];
    for (const hb::StageInfo& st : f.stages) {
      StageFeatures r;
      r.func = f.name;
      r.stage = st.index;
      algorithm_features(kd, f, st, r);
      r[F::placement_open] = placement_open;
      const auto cit = cost.find({f.name, st.index});
      if (cit == cost.end()) {
        r[F::inlined] = 1;
        rows.push_back(r);
        continue;
      }
      const StageCost& c = *cit->second;
      r[F::at_root] = c.where == Where::Root;
      r[F::at_tile] = c.where == Where::Tile;
      r[F::at_subtile] = c.where == Where::Subtile;
      r[F::sliding] = c.sliding;
      r[F::parallel] = c.parallel;
      r[F::vectorized] = c.vectorize;
      r[F::unrolled] = c.unroll;
      r[F::points_computed] = c.points_computed;
      r[F::recompute] = c.recompute;
      r[F::productions] = c.productions;
      r[F::realizations] = c.realizations;
      r[F::allocation_bytes] = st.index == 0 && c.where != Where::Root ? c.buffer_bytes : (st.index == 0 ? c.buffer_bytes : 0);
      r[F::vector_efficiency] = c.vector_efficiency;
      r[F::ops_with_inlined] = c.ops_per_point;
      r[F::parallel_tasks] = c.parallel_tasks;
      r[F::cores_used] = c.cores_used;

      // The innermost tile: the inner band, and the loop innermost in the emitted order over
      // its emitted extent when it is not in the inner band (the analytic model reports 1
      // for a loop outside it).
      std::vector<double> inner = c.inner_tile;
      const int im = c.innermost_loop;
      if (im < int(inner.size()) && inner[im] <= 1) inner[im] = c.innermost_extent;
      r[F::inner_extent] = im < int(inner.size()) ? inner[im] : 1;
      const int u = c.unroll_loop;
      r[F::unroll_factor] = c.unroll && u >= 0 && u < int(inner.size()) ? std::max(1.0, inner[u]) : 1;
      if (c.third_loop >= 0 && c.third_loop < int(inner.size())) r[F::unroll_factor] *= std::max(1.0, inner[c.third_loop]);
      r[F::loads_per_iteration] = c.loads_per_point * r[F::unroll_factor];

      r[F::footprint_bytes] = c.footprint_bytes;
      r[F::working_set_bytes] = c.footprint_bytes + product(c.extents) * f.bytes_per_point;
      r[F::inner_footprint_bytes] = read_bytes(kd, f.name, st.index, inner, inlined);
      r[F::inner_working_set_bytes] = r[F::inner_footprint_bytes] + product(inner) * f.bytes_per_point;

      // Optimistic counts over the placements still open (see the header).
      double points = c.points_computed;
      if (placement_open) {
        // Inside a consumer whose tiling is still open, take the region too (optimistic).
        const bool may_root_or_slide = allows_where(fv, Where::Root) || can_place_at;
        if (may_inline(f, fv)) {
          points = 0;
          r[F::productions] = r[F::realizations] = r[F::recompute] = r[F::allocation_bytes] = 0;
        } else if (may_root_or_slide) {
          points = std::min(points, double(st.points()));
          r[F::productions] = std::min(r[F::productions], 1.0);
          r[F::realizations] = std::min(r[F::realizations], st.index == 0 ? 1.0 : 0.0);
          r[F::recompute] = std::min(r[F::recompute], 1.0);
        }
      }
      const double scale = c.points_computed > 0 ? points / c.points_computed : 0;
      r[F::points_computed] = points;
      r[F::innermost_iterations] = c.innermost_iterations * scale;
      const double vw = std::max(1, c.vector_width);
      r[F::vector_iterations] = c.vectorize ? points / (vw * std::max(c.vector_efficiency, 1e-9)) : 0;
      r[F::scalar_iterations] = c.vectorize ? 0 : points;
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace candor::models::halide
