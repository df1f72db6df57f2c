#include "analytic_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <forward_list>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <type_traits>
#include <unordered_map>

#include "kernel_index.h"
#include "traversal.h"
#include "view_util.h"

namespace candor::models::halide {

namespace hb = candor::halide_bridge;
using namespace detail;

std::vector<double> access_footprint(const hb::Edge& e, const std::vector<double>& len) {
  std::vector<double> w;
  for (size_t d = 0; d < e.footprint.size(); ++d) {
    const hb::AccessDim& a = e.footprint[d];
    double width = double(a.width());
    if (a.affine)
      for (size_t i = 0; i < a.coeffs.size() && i < len.size(); ++i)
        width += std::fabs(a.coeffs[i].value()) * std::max(0.0, len[i] - 1);
    const double whole = d < e.required.size() ? double(e.required[d].extent()) : width;
    w.push_back(std::max(1.0, std::min(width, whole)));
  }
  return w;
}

namespace {

// The choices of one stage once resolved (fixed, or optimistically completed).
struct StageChoice {
  bool parallel = false, vectorize = false, unroll = false;
  int parallel_loop = -1;  // the loop run in parallel (every loop outside it has one iteration)
  std::vector<int64_t> tile, subtile;  // per loop (innermost first); 1: not split
  // Loop indices (innermost first; -1: none): the loop vectorized (the innermost pure
  // loop), the loop unrolled, the third pure loop when unrolled with it (a two-loop register
  // tile), and the loop innermost in the emitted order.
  int vector_loop = -1, unroll_loop = -1, third_loop = -1, innermost = 0;
  // The loops whose inner band is unrolled whole (-1: none).
  std::array<int, 2> unrolled_loops() const { return {unroll ? unroll_loop : -1, third_loop}; }
};

// The pure loops of a stage, innermost first: the space vectorizes the first and unrolls
// the second under it (RDom loops are never split or annotated).
std::vector<int> pure_loops(const hb::StageInfo& st) {
  std::vector<int> out;
  for (int i = 0; i < int(st.loops.size()); ++i)
    if (st.loops[i].is_pure) out.push_back(i);
  return out;
}

// The first n loops of a stage as the space emits them (bands() in spaces/halide_cpu_space.cpp).
std::vector<EmittedLoop> emitted_loops(const StageChoice& c, const hb::StageInfo& st, size_t n) {
  std::vector<EmittedLoop> out;
  for (size_t i = 0; i < n; ++i) out.push_back({st.loops[i].is_pure, st.loops[i].extent, c.tile[i], c.subtile[i]});
  return out;
}

// The loop innermost in the emitted order: the space emits the inner band, the RDom loops,
// the middle band, then the outer band, each in the kernel's loop order (innermost first);
// a pure loop lands in the inner band when split with a subtile, in the middle band when
// split without.
int emitted_innermost(const StageChoice& c, const hb::StageInfo& st) {
  for (size_t i = 0; i < c.tile.size(); ++i)
    if (c.tile[i] > 1 && c.subtile[i] > 1) return int(i);
  for (size_t i = 0; i < st.loops.size(); ++i)
    if (!st.loops[i].is_pure) return int(i);
  for (size_t i = 0; i < c.tile.size(); ++i)
    if (c.tile[i] > 1) return int(i);
  return 0;
}

// Iterations of loop i's part that is innermost in the emitted order (see emitted_innermost).
double innermost_extent(const StageChoice& c, const std::vector<double>& ext, int i) {
  if (i < 0 || i >= int(ext.size())) return 1;
  if (c.tile[i] <= 1) return ext[i];
  const double tile = std::min(ext[i], double(c.tile[i]));
  return c.subtile[i] > 1 ? std::min(tile, double(c.subtile[i])) : tile;
}

// The vector register file: 32 registers with AVX-512, 16 below.
int vector_registers(const MachineDescription& m) { return m.vector_bytes >= 64 ? 32 : 16; }

// Iterations of loop i's inner band per production: its subtile, no longer than its tile or
// the loop. A loop split without a subtile (or not at all) has no inner band: 1.
double inner_band_length(const StageChoice& c, const std::vector<double>& ext, size_t i) {
  if (c.tile[i] <= 1 || c.subtile[i] <= 1) return 1;
  return std::min(ext[i], double(std::min(c.tile[i], c.subtile[i])));
}

// Vector accumulators of an update held in registers across its RDom loops: the inner band
// (inside the RDom loops) is one vector of the vector loop times the unrolled loops and at
// most one loop short enough that LLVM unrolls it itself, and nothing else, so LLVM keeps the
// tile in registers, loading and storing it once per reduction. Two such loops nested are not
// unrolled in time: depthwise_separable_conv's pointwise update in tiles of 2 vectors by 2 x 2
// pixels, both pixel loops rolled, ran 1.9x as long as with either one unrolled (the pipeline,
// one thread). 0 when the inner band is not such a tile; `rolled_loops` (optional) receives
// the rolled loop it counts.
double register_tile_vectors(const StageChoice& c, const hb::StageInfo& st, const std::vector<double>& ext, int vw,
                             const AnalyticModelOptions& o, std::vector<int>* rolled_loops = nullptr) {
  bool reduction = false;
  for (const hb::LoopInfo& l : st.loops) reduction |= !l.is_pure;
  if (!reduction || !c.vectorize || c.vector_loop < 0) return 0;
  const std::array<int, 2> unrolled = c.unrolled_loops();
  double vectors = 1;
  int rolled = 0;
  for (size_t i = 0; i < ext.size() && i < c.tile.size(); ++i) {
    if (!st.loops[i].is_pure) continue;
    const double len = inner_band_length(c, ext, i);
    if (len <= 1) continue;  // not in the inner band (or one iteration of it)
    if (int(i) == c.vector_loop) {
      // A few vectors along the vector loop are a constant-trip loop LLVM unrolls; more
      // are a loop of vectors inside the reduction.
      if (len > o.vector_loop_unrolled * vw) return 0;
      vectors *= std::ceil(len / vw);
    } else if (int(i) == unrolled[0] || int(i) == unrolled[1]) {
      vectors *= len;
    } else if (len <= o.llvm_unrolled_trips) {
      if (++rolled > 1) return 0;
      vectors *= len;
      if (rolled_loops) rolled_loops->push_back(int(i));
    } else {
      return 0;
    }
  }
  return vectors;
}

// The loop nest the space emits for a stage, innermost first, as (loop, iterations per
// production): the inner band, the RDom loops, the middle band, the outer band (bands() in
// spaces/halide_cpu_space.cpp); loops of one iteration left out.
std::vector<NestLoop> emitted_nest(const StageChoice& c, const hb::StageInfo& st, const std::vector<double>& ext) {
  std::vector<NestLoop> nest;
  auto add = [&](int i, double n) {
    if (n > 1) nest.push_back({i, n});
  };
  const int n = int(std::min(ext.size(), c.tile.size()));
  for (int i = 0; i < n; ++i)
    if (st.loops[i].is_pure) add(i, inner_band_length(c, ext, size_t(i)));
  for (int i = 0; i < n; ++i)
    if (!st.loops[i].is_pure) add(i, ext[i]);
  for (int i = 0; i < n; ++i) {
    if (!st.loops[i].is_pure || c.tile[i] <= 1) continue;
    const double tile = std::min<double>(ext[i], c.tile[i]);
    if (c.subtile[i] <= 1) add(i, tile);
    else if (c.subtile[i] < c.tile[i]) add(i, std::ceil(tile / c.subtile[i]));
  }
  for (int i = 0; i < n; ++i)
    if (st.loops[i].is_pure) add(i, c.tile[i] > 1 ? std::ceil(ext[i] / c.tile[i]) : ext[i]);
  return nest;
}

// A Func as resolved: where it is computed and how much of it per production.
struct FuncState {
  bool resolved = false;
  Where where = Where::Root;
  bool sliding = false;
  // A sliding window Halide does not fold (read_by_a_sliding_window): its allocation spans
  // the whole coarser tile it slides down, and its stores walk through all of it, while its
  // readers still find the rows they read just written.
  bool unfolded = false;
  double allocation_bytes = 0;  // of one allocation: buffer_bytes, or an unfolded window's tile
  int host = -1;            // the Func in whose loops it is computed (Tile, Subtile)
  double productions = 1;   // regions of it computed over the whole pipeline
  double realizations = 1;  // allocations of its buffer
  double cores = 1;         // cores that run it (inherited from the consumer inside it)
  double core_efficiency = 1;
  std::vector<std::vector<double>> extents;  // per stage, per loop: extent per production
  std::vector<StageChoice> choice;           // per stage
  double buffer_bytes = 0;                   // per realization
  double evals = 0;                          // evaluations of its value (inlined: per call)
};

// Funcs placed at the root while resolving, completed and priced, shared by the views of one
// batch. Resolved before its producers, a Func at the root is priced from its own view and
// the bytes the pipeline streams through alone (its consumers' placements reach it only
// through those bytes), and the views of a search's batch share most of their undecided
// Funcs: the memo spares the tile completion most of its work.
struct RootPlacements {
  struct Placed {
    FuncState state;
    double cost = 0;
  };
  std::map<std::vector<int64_t>, Placed> placed;  // by root_placement_key
};

// Operations x86 runs one lane at a time, per point of stage (f, stage), through inlined
// Funcs (each evaluated once per distinct point its call sites read: Halide's CSE): loads at
// data-dependent indices (gathers, once vectorized) and integer divisions by a run-time value.
// A Func inlined at data-dependent coordinates makes every load it performs a gather too
// (bilateral_grid's slice reads its blurred grid at the pixel's intensity, three taps per
// corner through the inlined blur).
struct LaneByLane {
  double gathers = 0, divisions = 0;
  double loads = 0;  // every load from a buffer (an input or a Func that is not inlined)
  // Loads at coordinates a boundary condition clamps along `vector_loop` (loop partitioning
  // leaves them clamped, so gathered, in the edge iterations; a clamp it cannot drop gathers
  // in every iteration, and counts in `gathers` instead), and whether some of them
  // read below the clamped buffer's first point or past its last (then the first, or the
  // last, iteration is an edge one).
  double boundary_loads = 0;
  bool boundary_below = false, boundary_above = false;
};

// Hashing of numbers bit for bit (boost's hash_combine step).
constexpr uint64_t kHashSeed = 0x9e3779b97f4a7c15ull;
inline void hash_mix(uint64_t& h, uint64_t x) { h ^= x + kHashSeed + (h << 6) + (h >> 2); }
inline uint64_t bits_of(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// What depends on a stage and on which Funcs are inlined and which are at the root, kept
// under those so that it serves every view and every placement that agrees on them: the
// boxes of the root buffers the stage touches for given loop lengths (Evaluator::root_boxes),
// its operations and reads through inlined Funcs (Evaluator::stage_invariants), and a host
// group's row streams (Evaluator::group_row_streams).
struct ByPlacements {
  // Where each Func is, as root boxes see it (0: inlined, 1: at the root or not yet placed,
  // 2: in another Func's loops), interned.
  std::map<std::vector<uint8_t>, int> placements;
  struct Key {
    int placements = 0, f = 0, stage = 0;
    std::vector<double> len;
    bool is(int p, int fn, int st, const std::vector<double>& l) const {
      return placements == p && f == fn && stage == st && len == l;
    }
  };
  static uint64_t hash(int placements, int f, int stage, const std::vector<double>& len) {
    uint64_t h = kHashSeed;
    hash_mix(h, uint64_t(placements));
    hash_mix(h, uint64_t(f) << 32 | uint32_t(stage));
    for (double x : len) hash_mix(h, bits_of(x));
    return h;
  }
  // By hash (the keys that share one, all kept); the boxes stay put as the table grows.
  std::unordered_map<uint64_t, std::forward_list<std::pair<Key, BufferBoxes>>> boxes;
  size_t box_count = 0;

  // A stage's operations per point through inlined Funcs (by type, ascending; with a vectorized
  // stage's uniform ones counted once per vector), the index operations of boundary clamps
  // loop partitioning may drop, its lane-by-lane operations, and what its reads cover.
  struct StageOps {
    std::vector<std::pair<std::string, double>> ops;
    double clamp_ops = 0;
    LaneByLane lane_by_lane;
    // Per buffer read through inlined Funcs: (call sites, distinct points) per point.
    std::map<std::string, std::pair<double, double>> reads_of;
    // Per read: the bytes it covers over the whole stage.
    std::map<const halide_bridge::Edge*, double> whole_bytes;
    // The other pure loops along which it loads through a boundary condition, in loop order:
    // (storage dimension, reads below its first point, reads past its last).
    std::vector<std::pair<int, std::pair<bool, bool>>> clamped_along;
  };
  // (placements, Func, stage, vectorized, vector loop, vector width)
  std::map<std::array<int, 6>, StageOps> stage_ops;

  // Evaluator::group_row_streams(), by (placements, host, its emitted nest, its stages'
  // extents, its guests), all as numbers, compared bit for bit.
  struct Bits {
    size_t operator()(const std::vector<double>& v) const {
      uint64_t h = kHashSeed;
      for (double x : v) hash_mix(h, bits_of(x));
      return size_t(h);
    }
    bool operator()(const std::vector<double>& a, const std::vector<double>& b) const {
      return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
    }
  };
  std::unordered_map<std::vector<double>, double, Bits, Bits> group_streams;

  size_t size() const { return box_count + stage_ops.size() + group_streams.size(); }
};

}  // namespace

// The index of the kernel the views belong to, the Funcs placed at the root so far, and what
// depends on the placements (for the model and kernel it was last given).
struct EvaluationCache::Shared {
  const hb::KernelDescription* kd = nullptr;
  const AnalyticModel* model = nullptr;
  size_t funcs = 0, edges = 0;
  std::unique_ptr<KernelIndex> index;
  RootPlacements roots;
  ByPlacements by_placements;
};

EvaluationCache::EvaluationCache() : shared_(std::make_unique<Shared>()) {}
EvaluationCache::~EvaluationCache() = default;

EvaluationCache::Shared& EvaluationCache::shared_for(const hb::KernelDescription& kd, const AnalyticModel& model) {
  Shared& s = *shared_;
  if (s.kd != &kd || s.model != &model || s.funcs != kd.funcs.size() || s.edges != kd.edges.size() || !s.index) {
    s.roots.placed.clear();
    s.by_placements = ByPlacements();
    s.index = std::make_unique<KernelIndex>(kd);
    s.kd = &kd;
    s.model = &model;
    s.funcs = kd.funcs.size();
    s.edges = kd.edges.size();
  }
  // Each entry holds a Func's state (a few hundred bytes): start afresh past this many.
  constexpr size_t kMaxRootPlacements = 1 << 15;
  if (s.roots.placed.size() > kMaxRootPlacements) s.roots.placed.clear();
  // An entry holds a few buffers' boxes and its loop lengths, or a stage's operations.
  constexpr size_t kMaxByPlacements = 1 << 16;
  if (s.by_placements.size() > kMaxByPlacements) s.by_placements = ByPlacements();
  return s;
}

namespace {

class Evaluator {
 public:
  Evaluator(const hb::KernelDescription& kd, const KernelIndex& ki, const ScheduleView& view,
            const MachineDescription& m, const AnalyticModelOptions& o, RootPlacements* memo = nullptr,
            ByPlacements* by_placements = nullptr)
      : kd_(kd),
        ki_(ki),
        m_(m),
        o_(o),
        memo_(memo),
        by_placements_(by_placements ? *by_placements : own_by_placements_) {
    views_.assign(kd_.funcs.size(), nullptr);
    for (const FuncView& fv : view.funcs)
      if (const int i = ki_.func(fv.name); i >= 0) views_[size_t(i)] = &fv;
    state_.resize(kd_.funcs.size());
    forget_placements();
  }

  Prediction run() {
    // Consumers first: a producer's footprint depends on its consumer's tiles.
    for (int i = int(kd_.funcs.size()) - 1; i >= 0; --i) resolve(i);
    Prediction p;
    for (size_t i = 0; i < kd_.funcs.size(); ++i) {
      if (state_[i].where == Where::Inline) continue;
      for (const hb::StageInfo& st : kd_.funcs[i].stages) {
        StageCost c = stage_cost(int(i), st.index);
        p.seconds += c.total_s;
        p.stages.push_back(std::move(c));
      }
    }
    return p;
  }

 private:
  const hb::KernelDescription& kd_;
  const KernelIndex& ki_;
  const MachineDescription& m_;
  const AnalyticModelOptions& o_;
  std::vector<const FuncView*> views_;  // by Func (null: the view does not mention it)
  RootPlacements* memo_;
  std::vector<FuncState> state_;
  mutable std::vector<std::vector<char>> read_paths_;  // reaches(), filled on first use
  // Caches of what depends on where Funcs are placed, cleared when one is placed
  // (forget_placements); root boxes, stage operations and row streams are kept under the
  // placements instead (ByPlacements).
  mutable std::map<int, std::set<std::string>> root_buffers_read_;  // root_buffers_read(), by Func
  ByPlacements own_by_placements_;  // when the evaluation has no cache to share
  ByPlacements& by_placements_;
  mutable int placements_ = 0;  // the current placements' id in by_placements_

  void forget_placements() const {
    root_buffers_read_.clear();
    std::vector<uint8_t> where(state_.size());
    for (size_t i = 0; i < state_.size(); ++i)
      where[i] = state_[i].where == Where::Inline ? 0 : state_[i].where == Where::Root ? 1 : 2;
    auto& ids = by_placements_.placements;
    placements_ = ids.try_emplace(std::move(where), int(ids.size())).first->second;
  }

  const FuncView* view_of(int f) const { return views_[size_t(f)]; }
  int find(const std::string& name) const { return ki_.func(name); }
  // Stage `stage` (0: pure, k: update k-1) of Func f, or null.
  const hb::StageInfo* stage_info(int f, int stage) const {
    for (const hb::StageInfo& st : kd_.funcs[f].stages)
      if (st.index == stage) return &st;
    return nullptr;
  }

  // ---- footprints ------------------------------------------------------------------------

  // Extent of each producer dimension read by `e` when the consumer's loops cover `len`
  // points each (by consumer loop index), clamped to what exists of the producer.
  std::vector<double> footprint(const hb::Edge& e, const std::vector<double>& len) const {
    return access_footprint(e, len);
  }

  // Per-production loop extents of the stages of Func `p` computed per tile of its host
  // `h`, whose stages' loops cover `h_len` (by stage index): the union of what every reader
  // of p needs, the Funcs between p and h (inlined, or computed in the same tile) needing in
  // turn what their readers need.
  std::vector<std::vector<double>> extents_under(int p, int h, const std::vector<std::vector<double>>& h_len) const {
    std::map<int, std::vector<std::vector<double>>> len;  // by Func
    len[h] = h_len;
    for (int g = h - 1; g > p; --g)
      if (reaches(p, g) && reaches(g, h)) len[g] = extents_needed(g, len);
    return extents_needed(p, len);
  }

  // Loop extents of Func p's stages covering what its readers in `len` read of it.
  std::vector<std::vector<double>> extents_needed(int p, const std::map<int, std::vector<std::vector<double>>>& len) const {
    const hb::FuncInfo& pf = kd_.funcs[p];
    std::vector<double> arg_w(pf.args.size(), 0.0);
    for (const hb::Edge* e : ki_.edges_from(p)) {
      const auto it = len.find(ki_.consumer(*e));
      if (it == len.end() || e->consumer_stage < 0 || e->consumer_stage >= int(it->second.size())) continue;
      const auto w = footprint(*e, it->second[e->consumer_stage]);
      for (size_t d = 0; d < w.size() && d < arg_w.size(); ++d) arg_w[d] = std::max(arg_w[d], w[d]);
    }
    std::vector<std::vector<double>> ext;
    for (const hb::StageInfo& st : pf.stages) {
      std::vector<double> e;
      for (const hb::LoopInfo& l : st.loops) {
        double x = double(l.extent);
        if (!l.is_rvar && l.arg_index >= 0 && l.arg_index < int(arg_w.size()) && arg_w[l.arg_index] > 0)
          x = std::min(x, arg_w[l.arg_index]);
        e.push_back(std::max(1.0, x));
      }
      ext.push_back(e);
    }
    return ext;
  }

  // Whether a path of reads leads from Func a to Func b.
  bool reaches(int a, int b) const {
    if (read_paths_.empty()) read_paths_ = kd_.read_paths();
    return read_paths_[a][b] != 0;
  }

  std::vector<std::vector<double>> full_extents(int f) const {
    std::vector<std::vector<double>> ext;
    for (const hb::StageInfo& st : kd_.funcs[f].stages) {
      std::vector<double> e;
      for (const hb::LoopInfo& l : st.loops) e.push_back(double(l.extent));
      ext.push_back(e);
    }
    return ext;
  }

  // ---- choices -----------------------------------------------------------------------------

  // The loop the space runs in parallel: the outer band's outermost loop with more than one
  // iteration. Optimistically, a loop too short to feed every core a few tasks (a colour
  // channel) is tiled whole when it may be, passing parallelism to the next loop in.
  int parallel_loop(const hb::StageInfo& st, const StageView* sv, const std::vector<double>& ext,
                    std::vector<bool>& whole) const {
    for (int i = int(st.loops.size()) - 1; i >= 0; --i) {
      if (!st.loops[i].is_pure) continue;
      const LoopView* lv = sv ? loop_view(sv, st.loops[i].var) : nullptr;
      if (!lv || lv->tile.values.empty()) return i;
      const auto& tv = lv->tile.values;
      if (lv->tile.fixed()) {
        if ((tv.front() <= 1 ? ext[i] : std::ceil(ext[i] / double(tv.front()))) > 1) return i;
        continue;
      }
      const bool may_be_whole = double(tv.back()) >= ext[i];
      if (!may_be_whole || ext[i] >= o_.min_parallel_tasks_per_core * m_.cores) return i;
      whole[i] = true;
    }
    return -1;
  }

  // Optimistic completion of one stage's choices for per-production extents `ext`.
  StageChoice choose(const hb::StageInfo& st, const StageView* sv, const std::vector<double>& ext,
                     bool at_root) const {
    StageChoice c;
    c.parallel = at_root && (sv ? may(sv->parallel, true) : true) && !st.loops.empty() && st.loops.back().is_pure;
    c.vectorize = sv ? may(sv->vectorize, true) : false;
    c.unroll = sv ? may(sv->unroll, true) && !may(sv->unroll, false) : false;
    const std::vector<int> pure = pure_loops(st);
    c.vector_loop = pure.empty() ? -1 : pure[0];
    if (c.vector_loop < 0) c.vectorize = false;
    const int v = c.vector_loop;
    const size_t n = st.loops.size();
    std::vector<bool> whole(n, false);
    if (c.parallel) c.parallel_loop = parallel_loop(st, sv, ext, whole);
    if (c.parallel_loop < 0) c.parallel = false;
    c.tile.assign(n, 1);
    c.subtile.assign(n, 1);
    for (size_t i = 0; i < n; ++i) {
      const LoopView* lv = sv ? loop_view(sv, st.loops[i].var) : nullptr;
      if (!lv || lv->tile.values.empty()) continue;
      const auto& tv = lv->tile.values;
      int64_t t;
      if (lv->tile.fixed()) {
        t = tv.front();
      } else if (whole[i]) {
        t = tv.back();
        for (int64_t v : tv)
          if (double(v) >= ext[i]) t = std::min(t, v);
      } else if (int(i) == c.parallel_loop) {
        // The parallel loop: the largest tile that still gives every core a few tasks.
        t = tv.front();
        for (int64_t v : tv)
          if (double(ceil_div(int64_t(ext[i]), v)) >= o_.min_parallel_tasks_per_core * m_.cores) t = v;
      } else {
        t = tv.back();
        if (int(i) == v && c.vectorize && sv) {
          // Keep the inner extent a multiple of the vector width if possible.
          for (int64_t v : tv)
            if (v >= sv->vector_width && v <= int64_t(ext[i])) t = v;
        }
      }
      c.tile[i] = std::max<int64_t>(1, t);
      const auto& sv_values = lv->subtile.values;
      int64_t s = 1;
      if (!sv_values.empty()) {
        if (lv->subtile.fixed()) {
          s = sv_values.front();
        } else {
          s = sv_values.front();
          for (int64_t v : sv_values)
            if (v <= c.tile[i]) s = v;
        }
      }
      c.subtile[i] = std::max<int64_t>(1, std::min(s, c.tile[i]));
    }
    if (c.vectorize && sv && c.tile[v] > 1 && c.subtile[v] < sv->vector_width) c.vectorize = false;
    c.unroll_loop = !c.vectorize ? c.vector_loop : pure.size() > 1 ? pure[1] : -1;
    if (c.unroll_loop < 0) c.unroll = false;
    const bool unroll_third = sv && may(sv->unroll_third, true) && !may(sv->unroll_third, false);
    if (unroll_third && c.unroll && c.vectorize && pure.size() > 2) c.third_loop = pure[2];
    c.innermost = emitted_innermost(c, st);
    return c;
  }

  // Tile lengths (per tile of the outer band, or of the middle band) of a stage.
  static std::vector<double> band_lengths(const StageChoice& c, const std::vector<double>& ext, bool subtile) {
    std::vector<double> len(ext.size(), 1.0);
    for (size_t i = 0; i < ext.size(); ++i) {
      if (c.tile[i] <= 1) continue;  // unsplit: in the outer band
      len[i] = std::min(ext[i], double(subtile ? c.subtile[i] : c.tile[i]));
    }
    return len;
  }

  static double product(const std::vector<double>& v) {
    double p = 1;
    for (double x : v) p *= x;
    return p;
  }

  // Points computed per point of the stage's region because split loops compute whole tiles:
  // Auto tails shift the last tile inwards (its points are computed twice) or round it up;
  // a guarded last tile is short, but a parallel loop still waits for its longest task.
  // The vector split's own tail is the vector efficiency's business.
  static double tail_waste(const StageChoice& c, const std::vector<double>& ext) {
    double waste = outer_band_waste(c, ext);
    for (size_t i = 0; i < ext.size() && i < c.tile.size(); ++i) {
      if (c.tile[i] <= 1 || ext[i] <= 0) continue;
      const double tile = std::min(ext[i], double(c.tile[i]));
      if (c.subtile[i] > 1 && c.subtile[i] < tile) waste *= std::ceil(tile / c.subtile[i]) * c.subtile[i] / tile;
    }
    return waste;
  }

  // The outer band's share of tail_waste: points of whole tiles per point of the region.
  static double outer_band_waste(const StageChoice& c, const std::vector<double>& ext) {
    double waste = 1;
    for (size_t i = 0; i < ext.size() && i < c.tile.size(); ++i) {
      if (c.tile[i] <= 1 || ext[i] <= 0) continue;
      const double tile = std::min(ext[i], double(c.tile[i]));
      waste *= std::ceil(ext[i] / tile) * tile / ext[i];
    }
    return waste;
  }

  static double parallel_tasks(const StageChoice& c, const std::vector<double>& ext) {
    const int p = c.parallel_loop;
    return std::ceil(ext[p] / double(std::max<int64_t>(1, c.tile[p])));
  }

  // Tiles of a stage per production (the outer band's iterations, or outer x middle). Every
  // tile is whole (a short last one is shifted inwards or rounded up), so a tile's subtiles
  // are counted per tile: 96 rows in tiles of 64 split by 8 are 2 x 8 subtiles, not 12.
  static double tiles(const StageChoice& c, const std::vector<double>& ext, bool subtile) {
    const auto outer = band_lengths(c, ext, false);
    const auto len = band_lengths(c, ext, subtile);
    double n = 1;
    for (size_t i = 0; i < ext.size(); ++i) n *= std::ceil(ext[i] / outer[i]) * std::ceil(outer[i] / len[i]);
    return n;
  }

  // Loops of consumer c's pure stage along which Func p's footprint there moves (false for all
  // when c does not read p directly; `read`, when given, says whether it does).
  std::vector<bool> footprint_moves(int p, int c, bool* read = nullptr) const {
    const hb::StageInfo& st = kd_.funcs[c].stages[0];
    std::vector<bool> moves(st.loops.size(), false);
    if (read) *read = false;
    for (const hb::Edge* e : ki_.edges_into(c, st.index)) {
      if (e->producer != kd_.funcs[p].name) continue;
      if (read) *read = true;
      for (const hb::AccessDim& a : e->footprint)
        for (size_t k = 0; k < a.coeffs.size() && k < moves.size(); ++k)
          if (a.coeffs[k].value() != 0) moves[k] = true;
    }
    return moves;
  }

  // Whether c reads Func p where no loop of c moves what it reads (a LUT read at
  // data-dependent coordinates, its whole region every time): such a window never slides,
  // Halide computes it again in every iteration (hist_eq's equalize_lut stored per tile of
  // 32 rows and computed per 16 x 8 pixels, priced as computed once, ran 3x as long).
  bool window_stays_put(int p, int c) const {
    bool read = false;
    const std::vector<bool> moves = footprint_moves(p, c, &read);
    return read && std::none_of(moves.begin(), moves.end(), [](bool m) { return m; });
  }

  // Passes of a sliding window of Func p over its whole region: a loop of consumer c between
  // the storage and the loop the window slides along (the innermost of the outer band for
  // Tile, of the middle band for Subtile) that does not move p's footprint (a colour channel
  // over a 2-D producer) restarts the window on each of its iterations.
  double window_restarts(int p, int c, const StageChoice& cc, const std::vector<double>& ext, bool sub) const {
    const hb::StageInfo& st = kd_.funcs[c].stages[0];
    const std::vector<bool> moves = footprint_moves(p, c);
    double restarts = 1;
    bool slide_loop = true;  // the first (innermost) loop of the band is the one it slides along
    for (size_t k = 0; k < st.loops.size() && k < ext.size(); ++k) {
      if (!st.loops[k].is_pure) continue;
      double trips;
      if (sub) {
        if (cc.tile[k] <= 1 || cc.subtile[k] >= cc.tile[k]) continue;  // not in the middle band
        trips = std::ceil(std::min(ext[k], double(cc.tile[k])) / double(std::max<int64_t>(1, cc.subtile[k])));
      } else {
        trips = cc.tile[k] <= 1 ? ext[k] : std::ceil(ext[k] / double(cc.tile[k]));
      }
      if (!slide_loop && !moves[k]) restarts *= trips;
      slide_loop = false;
    }
    return restarts;
  }

  // Whether Func p, sliding in host c's loops, is read (directly or through inlined Funcs)
  // by a Func that slides in the same loops. Halide 14 folds a sliding window's storage down
  // to the rows it spans only when none of its readers slides too: max_filter's input_clamped,
  // vert_max_2 and vert_max_3 sliding down strips of 256 rows allocate 274, 268 and 8 rows
  // (the lowered statement), and only the last is not read by another sliding Func.
  bool read_by_a_sliding_window(int p, int c, int depth = 0) const {
    if (depth > 32) return false;
    for (const hb::Edge* e : ki_.edges_from(p)) {
      const int q = ki_.consumer(*e);
      if (q < 0 || q == p || !state_[q].resolved) continue;
      if (state_[q].where == Where::Inline ? read_by_a_sliding_window(q, c, depth + 1)
                                           : state_[q].sliding && state_[q].host == c)
        return true;
    }
    return false;
  }

  // The allocations of the unfolded windows that slide down the same host tile as Func p's,
  // its own included: they live at once, and each strip's stores walk through all of them.
  double unfolded_allocations_beside(int p) const {
    const FuncState& s = state_[p];
    double bytes = 0;
    for (const FuncState& o : state_)
      if (o.resolved && o.unfolded && o.host == s.host && o.where == s.where) bytes += o.allocation_bytes;
    return std::max(bytes, s.allocation_bytes);
  }

  // ---- resolution ------------------------------------------------------------------------

  // Places Func i at `w` (in Func `host`'s loop nest at Tile and Subtile) given its
  // resolved consumers; fills `s` (not yet the stage costs).
  void place(int i, Where w, bool sliding, int host, FuncState& s) const {
    const hb::FuncInfo& f = kd_.funcs[i];
    const FuncView* fv = view_of(i);
    s = FuncState();
    s.resolved = true;
    s.where = w;
    s.sliding = sliding;
    if (w == Where::Inline) {
      s.extents = full_extents(i);
      return;
    }
    int c = -1;
    std::vector<std::vector<double>> unfolded_extents;  // the coarser tile an unfolded window fills
    if (w == Where::Tile || w == Where::Subtile) {
      c = host;
      if (c < 0 || state_[c].where == Where::Inline || !state_[c].resolved) w = s.where = Where::Root;
    }
    if (w == Where::Root) {
      s.productions = 1;
      s.realizations = 1;
      s.extents = full_extents(i);
      s.cores = m_.cores;  // refined by the stage's own parallel loop
    } else {
      s.host = c;
      const FuncState& cs = state_[c];
      const bool sub = w == Where::Subtile;
      // The host's loop lengths over one of its tiles (or subtiles), by stage.
      auto host_lengths = [&](bool subtile) {
        std::vector<std::vector<double>> len = cs.extents;  // only the pure stage hosts producers
        if (!len.empty()) len[0] = band_lengths(cs.choice[0], cs.extents[0], subtile);
        return len;
      };
      const double per = tiles(cs.choice[0], cs.extents[0], sub);
      s.productions = cs.productions * per;
      s.extents = extents_under(i, c, host_lengths(sub));
      s.cores = cs.cores;
      s.core_efficiency = cs.core_efficiency;
      // Storage one level coarser: the window slides along the loop it is computed in, each
      // point computed once per pass of that loop, one allocation per coarser tile. Where no
      // loop runs between the two levels (a host tile of one subtile), nothing slides: the
      // window restarts per production (stencil_chain's stages each stored and computed per
      // tile of the next, priced as sliding, ran 12 ms against 0.65 predicted).
      const double coarser = sub ? cs.productions * tiles(cs.choice[0], cs.extents[0], false) : cs.productions;
      if (sliding && coarser < s.productions && !window_stays_put(i, c)) {
        s.realizations = coarser;
        s.unfolded = read_by_a_sliding_window(i, c);
        if (s.unfolded) unfolded_extents = sub ? extents_under(i, c, host_lengths(false)) : full_extents(i);
        double pts = 0;
        if (sub && f.consumers.size() > 1) {
          // Stored per tile, the window starts afresh in each tile: it computes the tile's
          // whole footprint, halo included (max_filter's input_clamped slid over tiles of
          // 32 x 8 pixels computes 44 x 20 points a tile), once per pass of its slide. A
          // single reader's window is still priced as one slide over the whole Func: priced
          // per tile too, box_blur's blur_x (32 x 18 points per 32 x 16 pixels) lost to a
          // strip schedule that ran 1.55x as long, which the model underprices.
          for (const auto& e : extents_under(i, c, host_lengths(false))) pts += product(e);
          pts *= coarser;
        } else {
          for (size_t k = 0; k < f.stages.size(); ++k) pts += double(f.stages[k].points());
          // A last tile shifted inwards computes its overlap with the one before again.
          if (sub) pts *= outer_band_waste(cs.choice[0], cs.extents[0]);
        }
        pts *= window_restarts(i, c, cs.choice[0], cs.extents[0], sub);
        double computed = 0;
        for (const auto& e : s.extents) computed += product(e);
        computed *= s.productions;
        if (computed > pts && computed > 0) {
          const double r = pts / computed;
          for (auto& e : s.extents)
            if (!e.empty()) e.back() = std::max(1.0, e.back() * r);
        }
      } else {
        s.sliding = false;
        s.realizations = s.productions;
      }
    }
    // Bytes of a buffer covering `ext` (per stage: the pure stage's pure loops count).
    auto bytes_over = [&](const std::vector<std::vector<double>>& ext) {
      double bytes = f.bytes_per_point;
      if (!ext.empty())
        for (size_t k = 0; k < f.stages[0].loops.size() && k < ext[0].size(); ++k)
          if (!f.stages[0].loops[k].is_rvar) bytes *= ext[0][k];
      return bytes;
    };
    s.buffer_bytes = bytes_over(s.extents);
    s.allocation_bytes = s.unfolded ? bytes_over(unfolded_extents) : s.buffer_bytes;
    for (size_t k = 0; k < f.stages.size(); ++k) {
      const StageView* sv = stage_view(fv, f.stages[k].index);
      s.choice.push_back(choose(f.stages[k], sv, s.extents[k], w == Where::Root));
    }
    set_root_cores(s);
  }

  // The cores a Func at the root runs on: its pure stage's parallel loop's (updates use their
  // own, in stage_cost).
  void set_root_cores(FuncState& s) const {
    if (s.where != Where::Root || s.choice.empty()) return;
    const StageChoice& ch = s.choice[0];
    const double iters = ch.parallel ? parallel_tasks(ch, s.extents[0]) : 1;
    s.cores = std::min<double>(m_.cores, iters);
    s.core_efficiency = ch.parallel ? iters / (std::ceil(iters / m_.cores) * m_.cores) * m_.cores / s.cores : 1;
  }

  // Func i's undecided tile sizes (placed in state_[i]), completed by its stage's own cost:
  // each undecided loop in turn, outermost first, takes the allowed tile that makes the stage
  // cheapest with the other loops as chosen so far (choose()'s guesses, then the outer
  // loops' picks). choose()'s guess alone, the largest tile, priced unsharp_mask's gray inside
  // full-width row strips at 3x its best tiles (a clamped read gathered in every vector of a
  // tile touching the edge), and the beam search dropped the strips, which run 0.6x as long.
  void complete_tiles(int i) {
    FuncState& s = state_[i];
    if (s.where == Where::Inline) return;
    const hb::FuncInfo& f = kd_.funcs[i];
    const FuncView* fv = view_of(i);
    for (size_t k = 0; k < f.stages.size(); ++k) {
      const StageView* sv = stage_view(fv, f.stages[k].index);
      if (!sv) continue;
      const hb::StageInfo& st = f.stages[k];
      std::optional<StageView> trial;
      for (int l = int(st.loops.size()) - 1; l >= 0; --l) {
        const LoopView* lv = loop_view(sv, st.loops[l].var);
        if (!lv || lv->tile.values.size() < 2) continue;
        if (!trial) trial = *sv;
        AllowedInts& tile = trial->loops[size_t(lv - sv->loops.data())].tile;
        const std::vector<int64_t> allowed = tile.values;
        double best = std::numeric_limits<double>::infinity();
        int64_t best_tile = allowed.back();
        for (int64_t t : allowed) {
          tile.values = {t};
          s.choice[k] = choose(st, &*trial, s.extents[k], s.where == Where::Root);
          if (k == 0) set_root_cores(s);
          const double cost = stage_cost(i, st.index).total_s;
          if (cost < best) {
            best = cost;
            best_tile = t;
          }
          if (double(t) >= s.extents[k][l]) break;  // a longer tile is the same whole loop
        }
        tile.values = {best_tile};
      }
      if (!trial) continue;
      s.choice[k] = choose(st, &*trial, s.extents[k], s.where == Where::Root);
      if (k == 0) set_root_cores(s);
    }
  }

  void resolve(int i) {
    const hb::FuncInfo& f = kd_.funcs[i];
    const FuncView* fv = view_of(i);
    struct Option {
      Where where;
      bool sliding;
      int host;
    };
    std::vector<Option> options;
    for (Where w : {Where::Inline, Where::Root, Where::Tile, Where::Subtile}) {
      if (w == Where::Inline && !f.can_inline) continue;
      if (!allows_where(fv, w)) continue;
      if (w != Where::Tile && w != Where::Subtile) {
        options.push_back({w, false, -1});
        continue;
      }
      if (!fv) continue;
      for (const std::string& name : fv->hosts) {
        const int h = find(name);
        if (h < 0) continue;
        // Windows slide over the nearest host only (a single consumer's loops).
        if (may(fv->sliding, true) && fv->sliding.bits && name == fv->hosts.front()) options.push_back({w, true, h});
        if (may(fv->sliding, false) || fv->sliding.bits == 0) options.push_back({w, false, h});
      }
    }
    if (options.empty()) options.push_back({f.is_output || !f.can_inline ? Where::Root : Where::Inline, false, -1});
    double best = std::numeric_limits<double>::infinity();
    FuncState best_state;
    for (const Option& o : options) {
      FuncState s;
      place(i, o.where, o.sliding, o.host, s);
      state_[i] = s;
      forget_placements();
      double cost;
      if (memo_ && state_[i].where == Where::Root) {
        auto [it, added] = memo_->placed.try_emplace(root_placement_key(i, fv));
        if (added) {
          complete_tiles(i);
          it->second = {state_[i], local_cost(i)};
        }
        state_[i] = it->second.state;
        cost = it->second.cost;
      } else {
        complete_tiles(i);
        cost = local_cost(i);
      }
      if (cost < best) {
        best = cost;
        best_state = state_[i];
      }
    }
    state_[i] = best_state;
    forget_placements();
  }

  // What Func i placed at the root (in state_[i]) is completed and priced from: its view, the
  // bytes the pipeline streams through, and how the other Funcs placed so far split their work
  // over the cores (l2_share).
  std::vector<int64_t> root_placement_key(int i, const FuncView* fv) const {
    const double streamed = pipeline_bytes();
    int64_t streamed_bits;
    std::memcpy(&streamed_bits, &streamed, sizeof streamed_bits);
    std::vector<int64_t> key = {i, streamed_bits};
    std::set<std::string> buffers = root_buffers_read(i);
    buffers.insert(kd_.funcs[i].name);
    for (int q = 0; q < int(state_.size()); ++q) {
      if (q == i || std::none_of(buffers.begin(), buffers.end(), [&](const std::string& b) { return touches(q, b); }))
        continue;
      const auto [arg, tile] = parallel_split(top_host(q));
      key.insert(key.end(), {q, arg, tile});
    }
    if (!fv) return key;
    for (const StageView& sv : fv->stages) {
      key.insert(key.end(), {sv.stage, sv.parallel.bits, sv.vectorize.bits, sv.unroll.bits, sv.unroll_third.bits,
                             sv.vector_width, int64_t(sv.loops.size())});
      for (const LoopView& lv : sv.loops) {
        key.push_back(int64_t(lv.tile.values.size()));
        key.insert(key.end(), lv.tile.values.begin(), lv.tile.values.end());
        key.push_back(int64_t(lv.subtile.values.size()));
        key.insert(key.end(), lv.subtile.values.begin(), lv.subtile.values.end());
      }
    }
    return key;
  }

  // The cost of Func i as placed, for choosing among its options: its stages' costs, or,
  // inlined, its operations evaluated in its (non-inlined) consumers.
  double local_cost(int i) {
    if (state_[i].where != Where::Inline) {
      double t = 0;
      for (const hb::StageInfo& st : kd_.funcs[i].stages) t += stage_cost(i, st.index).total_s;
      return t;
    }
    double t = 0;
    const auto ops = weighted_ops(kd_.funcs[i].stages[0].ops);
    for (const hb::Edge* e : ki_.edges_from(i)) {
      const int c = ki_.consumer(*e);
      if (c < 0 || !state_[c].resolved) continue;
      const hb::StageInfo* cst = stage_info(c, e->consumer_stage);
      const double per = cst ? inline_evals(*e, std::vector<double>(cst->loops.size(), 1.0)) : e->calls;
      const double evals = evaluations(c, e->consumer_stage) * per;
      t += evals * compute_seconds_per_point(ops, c, e->consumer_stage);
    }
    return t;
  }

  // Evaluations of stage (f, s)'s value: points computed, or, inlined, per call site.
  double evaluations(int f, int stage) const {
    const FuncState& s = state_[f];
    if (s.where != Where::Inline) return s.productions * product(s.extents[stage]);
    double n = 0;
    for (const hb::Edge* e : ki_.edges_from(f)) {
      const int c = ki_.consumer(*e);
      if (c >= 0 && state_[c].resolved) n += evaluations(c, e->consumer_stage) * e->calls;
    }
    return n;
  }

  // ---- costs -------------------------------------------------------------------------------

  std::vector<std::pair<std::string, double>> weighted_ops(const hb::OpCounts& ops) const {
    std::vector<std::pair<std::string, double>> r;
    for (const auto& [type, n] : ops.by_type) r.emplace_back(type, n * (type == "int32" ? o_.index_op_weight : 1.0));
    // A division by a constant is a sequence of operations (by_type counted it as one).
    for (const auto& [type, n] : ops.constant_div_by_type)
      r.emplace_back(type, n * (m_.constant_division_ops(type) - 1));
    return r;
  }

  // Evaluations of an inlined producer per point of its consumer: one per call site, but
  // call sites reading the same point are common subexpressions (Halide's CSE), so at most
  // the number of distinct points the call sites read.
  double inline_evals(const hb::Edge& e, const std::vector<double>& len) const {
    return std::min(double(e.calls) * product(len), product(footprint(e, len)));
  }

  // Ops of stage (f, stage) per point, with those of inlined producers (per distinct point
  // read). `len`: the region of f evaluated per point of the stage that is computed. With
  // `clamp_ops`, also adds there the index operations of those that clamp coordinates for a
  // boundary condition loop partitioning drops from the interior (partitioned_clamp_ops), at
  // depth 0 only along `vector_loop` when it is given.
  void stage_ops(int f, int stage, std::map<std::string, double>& ops, const std::vector<double>& len, int depth,
                 double* clamp_ops = nullptr, int vector_loop = -1) const {
    const hb::FuncInfo& fi = kd_.funcs[f];
    const double scale = product(len);
    for (const hb::StageInfo& st : fi.stages)
      if (st.index == stage)
        for (const auto& [t, n] : weighted_ops(st.ops)) ops[t] += n * scale;
    for (const hb::Edge* e : ki_.edges_into(f, stage)) {
      if (e->producer == fi.name) continue;
      if (clamp_ops) *clamp_ops += partitioned_clamp_ops(*e, depth > 0 ? -1 : vector_loop) * scale;
      if (e->producer_is_input || depth > 32) continue;
      const int p = ki_.producer(*e);
      if (p >= 0 && state_[p].resolved && state_[p].where == Where::Inline)
        stage_ops(p, 0, ops, inlined_region(*e, p, len), depth + 1, clamp_ops);
    }
  }

  // The region of inlined producer p evaluated per `len` of the consumer reading it through
  // `e`, by p's loops: distinct points, but never more than one evaluation per call.
  std::vector<double> inlined_region(const hb::Edge& e, int p, const std::vector<double>& len) const {
    const auto w = footprint(e, len);
    std::vector<double> plen;
    for (const hb::LoopInfo& l : kd_.funcs[p].stages[0].loops)
      plen.push_back(l.arg_index >= 0 && l.arg_index < int(w.size()) ? w[l.arg_index] : 1.0);
    const double evals = inline_evals(e, len);
    const double pts = product(plen);
    if (pts > evals && pts > 0)
      for (double& x : plen) x *= std::pow(evals / pts, 1.0 / double(plen.size()));
    return plen;
  }

  // Index operations per consumer point of `e`'s call sites that clamp coordinates for a
  // boundary condition loop partitioning drops from the interior: a min, a max and the
  // likely() hint per clamped coordinate per call, as repeat_edge writes them. With
  // `vector_loop` >= 0, only coordinates that vary along it: the consumer's own operations
  // uniform along it already run once per vector.
  static double partitioned_clamp_ops(const hb::Edge& e, int vector_loop) {
    constexpr double kOpsPerClamp = 3;
    double n = 0;
    for (const hb::AccessDim& a : e.footprint) {
      if (!a.boundary || a.clamped_everywhere) continue;
      if (vector_loop < 0 || (a.affine && vector_loop < int(a.coeffs.size()) && a.coeffs[vector_loop].num != 0))
        n += kOpsPerClamp * e.calls;
    }
    return n;
  }

  // Seconds per point of `ops` in the vectorization context of stage (f, stage), one core;
  // an update keeping `register_vectors` accumulators in registers (0: none) runs its float
  // arithmetic at the rate calibrated for register tiles of that size and loads per step,
  // times `tile_overlap` (register_tile_overlap: the next tiles' chains running beside).
  double compute_seconds_per_point(const std::vector<std::pair<std::string, double>>& ops, int f, int stage,
                                   double register_vectors = 0, double register_loads_per_step = 0,
                                   double tile_overlap = 1) const {
    const FuncState& s = state_[f];
    if (s.where == Where::Inline) {
      // Evaluated wherever its consumers are: take the first resolved consumer's context.
      for (const hb::Edge* e : ki_.edges_from(f)) {
        const int c = ki_.consumer(*e);
        if (c >= 0 && state_[c].resolved) return compute_seconds_per_point(ops, c, e->consumer_stage);
      }
      return 0;
    }
    size_t k = 0;
    for (; k < kd_.funcs[f].stages.size(); ++k)
      if (kd_.funcs[f].stages[k].index == stage) break;
    const bool vec = k < s.choice.size() && s.choice[k].vectorize;
    const StageView* sv = stage_view(view_of(f), stage);
    const int vw = sv && sv->vector_width > 0 ? sv->vector_width : kd_.funcs[f].vector_width;
    double t = 0;
    for (const auto& [type, n] : ops) {
      double rate;
      if (vec && register_vectors > 0 && type == "float32") {
        rate = m_.register_tile_rate(register_vectors * tile_overlap, register_loads_per_step * tile_overlap);
      } else if (vec && register_vectors > 0 && type == "int32") {
        // Index arithmetic of one step of the tile: its unrolled accumulators share it
        // (constant offsets from one address).
        rate = m_.vector.int32 * register_vectors;
      } else if (vec) {
        rate = m_.vector.for_type(type);
        const int lanes = m_.lanes_for_bits(type_bits(type));
        if (vw < lanes) rate *= double(vw) / lanes;
        // Wider than natural: several instructions per vector, same lane rate.
      } else {
        const double a = o_.autovectorized_share;
        const double u = std::max(m_.unvectorized.for_type(type), 1.0), sc = std::max(m_.scalar.for_type(type), 1.0);
        rate = 1.0 / (a / u + (1 - a) / sc);
      }
      t += n / std::max(rate, 1.0);
    }
    return t;
  }

  // How far each producer dimension of `e` moves per step of the reading stage's loops
  // moving by `step` (by loop index): the access Jacobian applied to the step.
  static std::vector<double> producer_step(const hb::Edge& e, const std::vector<double>& step) {
    std::vector<double> out(e.footprint.size(), 0.0);
    for (size_t d = 0; d < e.footprint.size(); ++d) {
      const hb::AccessDim& a = e.footprint[d];
      if (!a.affine) continue;
      for (size_t j = 0; j < a.coeffs.size() && j < step.size(); ++j) out[d] += a.coeffs[j].value() * step[j];
    }
    return out;
  }

  // Bytes between the producer elements `e` reads at consecutive iterations of the emitted
  // innermost loop, which moves the reading stage's loops by `step` (0: the same element).
  double innermost_stride_bytes(const hb::Edge& e, int p, const std::vector<double>& step) const {
    return innermost_stride_elements(e, p, step) * element_bytes(e, p);
  }
  double innermost_stride_elements(const hb::Edge& e, int p, const std::vector<double>& step) const {
    double stride = 0, dim_stride = 1;
    std::vector<hb::Range> shape;
    if (e.producer_is_input) {
      const hb::InputInfo* in = ki_.input(e);
      if (!in) return 0;
      shape = in->shape();
    } else if (p >= 0) {
      shape = kd_.funcs[p].region;
    }
    const std::vector<double> moved = producer_step(e, step);
    for (size_t d = 0; d < moved.size(); ++d) {
      stride += std::fabs(moved[d]) * dim_stride;
      if (d < shape.size()) dim_stride *= double(std::max<int64_t>(1, shape[d].extent()));
    }
    return stride;
  }
  int element_bytes(const hb::Edge& e, int p) const {
    if (e.producer_is_input) {
      const hb::InputInfo* in = ki_.input(e);
      return in ? in->type.bytes() : 4;
    }
    return p >= 0 ? std::max(1, kd_.funcs[p].bytes_per_point) : 4;
  }

  // Calls visit(edge, p, len, step[, evals]) for every read of a buffer by stage (f, stage),
  // looking through inlined Funcs to what they read: `p` the producer's index (-1: an input),
  // `len` the region the reading loops cover (by loop; through an inlined Func, its loops),
  // `step` how those loops move per step of the stage's loops moving by `step0`, and `evals`
  // the evaluations per point of the stage of the Func the edge reads into (1, or through
  // inlined Funcs the product of their inline_evals per point: Halide evaluates an inlined Func
  // at every call site reading another point, so its loads repeat per call site).
  template <class Visit>
  void for_each_buffer_read(int f, int stage, const std::vector<double>& len0, const std::vector<double>& step0,
                            Visit&& visit) const {
    // The loop lengths and steps live in `regions` (a deque: they stay put as it grows), the
    // stage's own being the caller's.
    struct Read {
      const hb::Edge* e;
      const std::vector<double>* len;
      const std::vector<double>* step;
      double evals;
    };
    const std::string& name = kd_.funcs[f].name;
    std::deque<std::vector<double>> regions;
    std::vector<Read> todo;
    for (const hb::Edge* e : ki_.edges_into(f, stage)) todo.push_back({e, &len0, &step0, 1.0});
    for (size_t q = 0; q < todo.size() && q < 256; ++q) {
      const Read r = todo[q];
      const hb::Edge* e = r.e;
      const std::vector<double>& len = *r.len;
      const std::vector<double>& step = *r.step;
      const int p = e->producer_is_input ? -1 : ki_.producer(*e);
      if (p >= 0 && e->producer != name && state_[p].where == Where::Inline) {
        std::vector<double>& plen = regions.emplace_back();
        std::vector<double>& pstep = regions.emplace_back();
        const auto w = footprint(*e, len);
        const auto moved = producer_step(*e, step);
        for (const hb::LoopInfo& l : kd_.funcs[p].stages[0].loops) {
          const bool arg = l.arg_index >= 0 && l.arg_index < int(w.size());
          plen.push_back(arg ? w[l.arg_index] : double(l.extent));
          pstep.push_back(arg ? moved[l.arg_index] : 0.0);
        }
        const double per_point = inline_evals(*e, std::vector<double>(len.size(), 1.0));
        for (const hb::Edge* e2 : ki_.edges_into(p, 0)) todo.push_back({e2, &plen, &pstep, r.evals * per_point});
        continue;
      }
      if constexpr (std::is_invocable_v<Visit, const hb::Edge&, int, const std::vector<double>&,
                                        const std::vector<double>&, double>)
        visit(*e, p, len, step, r.evals);
      else
        visit(*e, p, len, step);
    }
  }

  // Whether the reads of `e` along producer dimension `d`, over the reading Func's region
  // (what all its consumers read of it), reach past the producer's last point. Known where one
  // of the reading stage's loops moves the coordinate one for one (a boundary condition's
  // clamp of the input: clamped(x, y) = input(clamp(x), clamp(y))); nullopt elsewhere.
  std::optional<bool> reads_past_last(const hb::Edge& e, int f, const hb::StageInfo& st, size_t d) const {
    const hb::AccessDim& a = e.footprint[d];
    int loop = -1;
    for (size_t i = 0; i < a.coeffs.size() && i < st.loops.size(); ++i) {
      if (a.coeffs[i].num == 0) continue;
      if (loop >= 0 || !(a.coeffs[i] == hb::Rational{1, 1}) || !st.loops[i].is_pure) return std::nullopt;
      loop = int(i);
    }
    const int k = loop < 0 ? -1 : st.loops[loop].arg_index;
    const std::vector<hb::Range>& reader = kd_.funcs[f].region;
    // The clamped buffer's extent: a Func's region, or the input's declared size (what its
    // clamp clamps to at run time), not merely what the pipeline reads of it.
    const std::vector<hb::Range>* shape = nullptr;
    if (!e.producer_is_input) {
      if (const int p = ki_.producer(e); p >= 0) shape = &kd_.funcs[p].region;
    } else if (const hb::InputInfo* in = ki_.input(e)) {
      shape = in->estimate.empty() ? &in->shape() : &in->estimate;
    }
    if (!shape || k < 0 || k >= int(reader.size()) || d >= shape->size()) return std::nullopt;
    return reader[k].max + a.max_offset > (*shape)[d].max;
  }

  // `below`: the consumers on the way here read this Func below its first point along
  // `vector_loop` (`above`: past its last).
  LaneByLane lane_by_lane_per_point(int f, int stage, int depth, int vector_loop = -1, bool below = false,
                                    bool above = true) const {
    const hb::FuncInfo& fi = kd_.funcs[f];
    const hb::StageInfo* st = stage_info(f, stage);
    LaneByLane n;
    if (!st || depth > 32) return n;
    n.divisions = st->ops.variable_div;
    for (const hb::Edge* e : ki_.edges_into(f, stage)) {
      if (e->producer == fi.name) continue;
      // The producer's dimension the vector loop walks, and whether its coordinate is clamped.
      int walked = -1;
      bool at_boundary = false, everywhere = false, reads_below = below, reads_above = above;
      for (size_t d = 0; vector_loop >= 0 && d < e->footprint.size(); ++d) {
        const hb::AccessDim& a = e->footprint[d];
        if (a.affine && vector_loop < int(a.coeffs.size()) && a.coeffs[vector_loop].num != 0) {
          walked = int(d);
          at_boundary |= a.boundary;
          everywhere |= a.clamped_everywhere;
          reads_below |= a.min_offset < 0;
          // At the clamp itself, this Func's region tells whether any read lands past the
          // clamped buffer's last point. (Reads below its first point are judged by the
          // offsets on the way, as before: judging them by the region too made stencil_chain's
          // model-only pick 1.25x slower, a near-tie the model does not resolve.)
          if (a.boundary)
            if (const auto past = reads_past_last(*e, f, *st, d)) reads_above = *past;
        }
      }
      const int p = e->producer_is_input ? -1 : ki_.producer(*e);
      if (p >= 0 && state_[p].resolved && state_[p].where == Where::Inline) {
        const double evals = inline_evals(*e, std::vector<double>(st->loops.size(), 1.0));
        int producer_loop = -1;  // the inlined Func's loop over that dimension
        const auto& loops = kd_.funcs[p].stages[0].loops;
        for (int i = 0; walked >= 0 && i < int(loops.size()); ++i)
          if (loops[i].arg_index == walked) producer_loop = i;
        const LaneByLane inlined = lane_by_lane_per_point(p, 0, depth + 1, producer_loop, reads_below, reads_above);
        n.gathers += evals * (e->data_dependent() || everywhere ? inlined.loads : inlined.gathers);
        n.divisions += evals * inlined.divisions;
        n.loads += evals * inlined.loads;
        n.boundary_loads += everywhere ? 0.0 : evals * (at_boundary ? inlined.loads : inlined.boundary_loads);
        n.boundary_below |= at_boundary ? reads_below : inlined.boundary_below;
        n.boundary_above |= at_boundary ? reads_above : inlined.boundary_above;
      } else {
        if (e->data_dependent() || everywhere) n.gathers += e->calls;
        n.loads += e->calls;
        if (at_boundary && !everywhere) n.boundary_loads += e->calls;
        n.boundary_below |= at_boundary && reads_below;
        n.boundary_above |= at_boundary && reads_above;
      }
    }
    return n;
  }

  // The share of a vectorized stage's points whose vector lanes still load through a boundary
  // condition. Halide's loop partitioning splits the outermost loop along a clamped dimension
  // (a loop of the stage, or of a host it is computed in) into edge and steady iterations;
  // edge iterations run their whole subtree, Funcs computed inside included, with every clamp
  // still in place, and only the steady part partitions further inwards. So the lanes gather
  // in the edge iterations of the outermost loop along the vector's dimension and of every
  // loop outside it along another clamped dimension. The edge is the first iteration when the
  // reads reach below the first point, and the last when they reach past the last point or
  // the last tile is partial (the steady range ends at the last whole tile: hist_eq's clamped
  // copy at the root in two vector tiles of 64 over its 128 columns, exactly the input, has
  // no edge and copied in 0.8 us, where 16384 gathered lanes take 7). box_blur inlined at the
  // root in strips of 256 rows and tiles of 64 columns gathered in 2 of its 6 strips and 2 of
  // 24 tiles (3.6 ms against 2.0 ms computed per strip); with blur_x computed per row of those
  // strips, its own clamp gathered in the 2 edge strips (3.7 ms). Host loops and the stage's
  // loops are matched by the dimension they walk.
  // `clamped_along`: (storage dimension, reads below, reads past) of the other pure loops along
  // which the stage loads through a boundary condition (ByPlacements::StageOps).
  double clamped_share(int f, const StageChoice& ch, const hb::StageInfo& st, const std::vector<double>& ext, int vw,
                       bool vector_reads_below, bool vector_reads_above,
                       const std::vector<std::pair<int, std::pair<bool, bool>>>& clamped_along) const {
    struct Walk {
      int arg;
      double trips;
      bool partial_last;  // the last iteration covers less than the others
    };
    enum Bands { kOuter = 1, kMiddle = 2, kInner = 3 };
    // Appends the pure loops of a stage's bands, outer first, down to `deepest`: a split's
    // outer loop of one iteration still counts (it is all edge: box_blur as one tile of the
    // whole image, inlined, gathered everywhere, 20.8 ms), but a tile the space emits
    // without its outer loop has none (unsplit_whole_tiles); the vector loop's inner band
    // runs in vectors.
    auto add_bands = [&](std::vector<Walk>& out, const StageChoice& c, const hb::StageInfo& s,
                         const std::vector<double>& e, Bands deepest, int vector_loop, int width) {
      const int n = int(std::min({s.loops.size(), e.size(), c.tile.size()}));
      const std::vector<bool> unsplit = unsplit_whole_tiles(emitted_loops(c, s, n), c.vector_loop, c.vectorize,
                                                            c.unrolled_loops(), width, o_.vector_loop_unrolled);
      for (int i = n - 1; i >= 0; --i)
        if (s.loops[i].is_pure && !unsplit[i])
          out.push_back({s.loops[i].arg_index, c.tile[i] > 1 ? std::ceil(e[i] / c.tile[i]) : e[i],
                         c.tile[i] > 1 && std::fmod(e[i], c.tile[i]) != 0});
      for (int i = n - 1; deepest >= kMiddle && i >= 0; --i) {
        if (!s.loops[i].is_pure || c.tile[i] <= 1 || c.subtile[i] >= c.tile[i]) continue;
        const double tile = std::min(e[i], double(c.tile[i]));
        out.push_back({s.loops[i].arg_index, c.subtile[i] <= 1 ? tile : std::ceil(tile / c.subtile[i]),
                       c.subtile[i] > 1 && std::fmod(tile, c.subtile[i]) != 0});
      }
      for (int i = n - 1; deepest >= kInner && i >= 0; --i) {
        if (!s.loops[i].is_pure || c.tile[i] <= 1 || c.subtile[i] <= 1) continue;
        const double len = inner_band_length(c, e, size_t(i));
        out.push_back({s.loops[i].arg_index, i == vector_loop ? std::ceil(len / vw) : len,
                       i == vector_loop && std::fmod(len, vw) != 0});
      }
    };
    // The loops of the hosts the stage is computed in (outside its production), outermost
    // first, then the stage's own.
    std::vector<Walk> walks;
    for (int g = f; state_[g].where != Where::Root && state_[g].host >= 0;) {
      const FuncState& fs = state_[g];
      const FuncState& hs = state_[fs.host];
      if (hs.choice.empty() || hs.extents.empty()) break;
      std::vector<Walk> enclosing;
      add_bands(enclosing, hs.choice[0], kd_.funcs[fs.host].stages[0], hs.extents[0],
                fs.where == Where::Subtile ? kMiddle : kOuter, -1, kd_.funcs[fs.host].vector_width);
      walks.insert(walks.begin(), enclosing.begin(), enclosing.end());
      g = fs.host;
    }
    add_bands(walks, ch, st, ext, kInner, ch.vector_loop, kd_.funcs[f].vector_width);
    const int vector_arg = st.loops[ch.vector_loop].arg_index;
    // Dimensions whose coordinates a boundary condition clamps, and whether reads reach below
    // the first point and past the last.
    std::map<int, std::pair<bool, bool>> clamped = {{vector_arg, {vector_reads_below, vector_reads_above}}};
    for (const auto& [arg, reads] : clamped_along) clamped[arg] = reads;
    double share = 0, steady = 1;
    for (const Walk& w : walks) {
      auto c = clamped.find(w.arg);
      if (c == clamped.end()) continue;
      const auto [below, above] = c->second;
      const double edges = (below ? 1.0 : 0.0) + (above || w.partial_last ? 1.0 : 0.0);
      const double edge = std::min(1.0, edges / std::max(w.trips, 1.0));
      share += steady * edge;
      if (w.arg == vector_arg) return share;
      steady *= 1 - edge;
      clamped.erase(c);
    }
    return share;
  }

  // Does stage (f, stage) read, along its RDom loop `loop`, points of itself that an earlier
  // iteration of that loop wrote (a read spanning several points along a coordinate the loop
  // moves: out(rx - 1, y) beside out(rx, y))?
  bool carries_a_dependency(int f, int stage, int loop) const {
    const hb::StageInfo* st = stage_info(f, stage);
    if (!st || loop < 0 || loop >= int(st->loops.size()) || st->loops[loop].is_pure) return false;
    for (const hb::Edge* e : ki_.edges_into(f, stage)) {
      if (e->producer != kd_.funcs[f].name) continue;
      for (const hb::AccessDim& a : e->footprint)
        if (a.affine && loop < int(a.coeffs.size()) && a.coeffs[loop].num != 0 && a.width() > 1) return true;
    }
    return false;
  }

  // Seconds of `accesses` loads or stores that each touch a new line of a root buffer of
  // `buffer_bytes`: the innermost loop (`walk` iterations) steps `stride_bytes` through it, a
  // line or more. Where the lines of one walk stay in L2 (set conflicts counted: rows a power
  // of two apart share a few sets), the next walk finds them there, at the level their
  // lines fit in; where they do not, every access fetches its line from beyond L2 with no
  // prefetch, as a column walk does (transpose_u16 walking its output's 4096 rows of 8 KiB,
  // 128 lines of L2 apart from one another: 68.9 ms measured, 1.2 ms priced as streamed).
  double strided_walk_s(double accesses, double walk, double stride_bytes, double buffer_bytes, double cores) const {
    const double line = o_.cache_line_bytes;
    const double l2_lines = double(m_.l2_bytes) / line;
    const double fits = std::min(l2_lines, m_.l2_geometry.capacity_lines(walk, 1, stride_bytes));
    if (m_.column_walk.all_cores > 0 && walk > fits && buffer_bytes > double(m_.l2_bytes) * m_.cores)
      return accesses / std::max(1.0, column_walk_rate(m_, buffer_bytes, cores));
    const double lbw = m_.level_for(std::min(walk * line * m_.cores, buffer_bytes)).with_cores(cores, m_.cores);
    return accesses * line / std::max(lbw, 1.0);
  }

  // Bytes of a root buffer (an input, or a Func computed at the root) by name.
  double root_buffer_bytes(const std::string& name) const {
    if (const hb::InputInfo* in = ki_.input(name)) {
      double bytes = in->type.bytes();
      for (const hb::Range& r : in->shape()) bytes *= double(r.extent());
      return bytes;
    }
    const int p = find(name);
    return p < 0 ? 0.0 : kd_.funcs[p].points() * double(kd_.funcs[p].bytes_per_point);
  }

  // The share of root buffer `buffer`'s lines that a pass over it finds in L2, the pipeline
  // streaming `bytes` between two passes. Its lines wait in the L2 of the core that last
  // touched them. When every stage touching it splits its work over the cores alike, each
  // core finds its own share there, and the cores' L2s hold `bytes` together. Otherwise
  // another core's pass finds some lines in L3: all stay in L2 when the pipeline fits one
  // core's L2, none when it fills the cores' L2s together, a share in between. On a Xeon with
  // 2 MB of L2 per core, lens_blur (3.2 MB a run at its pick's placements) ran its
  // input_clamped down 16-column strips in 0.146 ms after 4 MB of other traffic, 0.055 ms
  // with its buffers left in L2; depthwise_separable_conv's depthwise_relu at the root (2.1
  // MB streamed), written and read in the same strips of 16 rows, ran 0.9 of the pick that
  // computes it in tiles.
  double l2_share(const std::string& buffer, double bytes) const {
    const double one = double(m_.l2_bytes), all = double(m_.capacity("L2"));
    if (bytes <= one || bytes > all || split_alike(buffer)) return 1;
    return (all - bytes) / (all - one);
  }

  // Whether every stage that writes or reads root buffer `buffer` (with the Funcs computed in
  // its tiles) runs in parallel along the same storage dimension in the same tiles.
  bool split_alike(const std::string& buffer) const {
    std::optional<std::pair<int, int64_t>> split;
    for (int q = 0; q < int(state_.size()); ++q) {
      if (!touches(q, buffer)) continue;
      const auto here = parallel_split(top_host(q));
      if (here.first < 0 || (split && *split != here)) return false;
      split = here;
    }
    return split.has_value();
  }

  // Whether Func q, placed and not inlined, writes root buffer `buffer` or reads it (through
  // inlined Funcs).
  bool touches(int q, const std::string& buffer) const {
    return state_[q].resolved && state_[q].where != Where::Inline &&
           (kd_.funcs[q].name == buffer || root_buffers_read(q).count(buffer) > 0);
  }

  // The storage dimension along which root Func h's pure stage runs in parallel, and that
  // loop's tile; {-1, 0} when it runs on one core (or is not resolved yet).
  std::pair<int, int64_t> parallel_split(int h) const {
    const FuncState& hs = state_[h];
    if (hs.choice.empty() || !hs.choice[0].parallel) return {-1, 0};
    const StageChoice& c = hs.choice[0];
    return {kd_.funcs[h].stages[0].loops[c.parallel_loop].arg_index, c.tile[c.parallel_loop]};
  }

  // Bytes of every buffer a run of the pipeline streams through: its inputs and the Funcs at
  // the root (outputs included), as resolved so far. Between two passes over a root buffer
  // (two runs, or its producer and a consumer) the pipeline touches up to this much, so a
  // root buffer stays in a cache level only when this fits there, however small it is.
  double pipeline_bytes() const {
    double bytes = 0;
    for (const hb::InputInfo& in : kd_.inputs) bytes += root_buffer_bytes(in.name);
    for (size_t i = 0; i < kd_.funcs.size(); ++i)
      if (state_[i].resolved && state_[i].where == Where::Root) bytes += root_buffer_bytes(kd_.funcs[i].name);
    return bytes;
  }

  // Bytes one tile of host h (at `level`: Tile or Subtile) touches between producing a Func
  // computed in it and reading it back, per core: the tile's boxes of the root buffers its
  // pure stage reads and writes, and the buffers of every Func computed at that level.
  double bytes_per_host_tile(int h, Where level) const {
    const FuncState& hs = state_[h];
    if (!hs.resolved || hs.extents.empty() || hs.choice.empty()) return 0;
    double bytes = 0;
    for (const auto& [buffer, box] : root_boxes(h, kd_.funcs[h].stages[0].index,
                                                band_lengths(hs.choice[0], hs.extents[0], level == Where::Subtile)))
      bytes += box.lines() * o_.cache_line_bytes;
    for (size_t q = 0; q < state_.size(); ++q)
      if (state_[q].resolved && state_[q].host == h && state_[q].where == level) bytes += state_[q].buffer_bytes;
    return bytes;
  }

  // Root buffers (inputs, Funcs computed at the root) that Func g's stages read, through
  // inlined Funcs; cached until the next Func is placed.
  const std::set<std::string>& root_buffers_read(int g) const {
    if (const auto it = root_buffers_read_.find(g); it != root_buffers_read_.end()) return it->second;
    std::set<std::string> names;
    for (const hb::StageInfo& st : kd_.funcs[g].stages) {
      const std::vector<double> len(st.loops.size(), 1.0), still(st.loops.size(), 0.0);
      for_each_buffer_read(g, st.index, len, still, [&](const hb::Edge& e, int p, const std::vector<double>&,
                                                        const std::vector<double>&) {
        if (e.producer_is_input || (p >= 0 && p != g && state_[p].resolved && state_[p].where == Where::Root))
          names.insert(e.producer);
      });
    }
    return root_buffers_read_[g] = std::move(names);
  }

  // The cache level Func f finds root buffer `buffer` in (`cold`: where nothing else brought
  // it in): a Func computed inside f's loops, or in the same tile of f's host before f (one
  // of f's producers), that reads the buffer too has just loaded the lines f reads in that
  // tile, which stay in the level holding one tile's working set (`resident`: set to that
  // working set, all cores, when it is not `cold`).
  const Bandwidth& warm_level(int f, const std::string& buffer, const Bandwidth& cold, double& resident) const {
    const Bandwidth* best = &cold;
    auto tile_level = [&](int host, Where level) {
      const double bytes = bytes_per_host_tile(host, level) * m_.cores;
      const Bandwidth& l = m_.level_for(bytes);
      if (l.bytes < best->bytes) best = &l, resident = bytes;
    };
    const FuncState& fs = state_[f];
    for (int g = 0; g < int(state_.size()); ++g) {
      const FuncState& gs = state_[g];
      if (g == f || !gs.resolved || gs.host < 0) continue;
      int q = g;
      for (size_t hops = 0; state_[q].host >= 0 && state_[q].host != f && hops < state_.size(); ++hops) q = state_[q].host;
      const bool inside = state_[q].host == f;
      if (!inside && !(gs.host == fs.host && gs.where == fs.where && reaches(g, f))) continue;
      if (!root_buffers_read(g).count(buffer)) continue;
      if (inside) tile_level(f, state_[q].where);
      else tile_level(fs.host, fs.where);
    }
    return *best;
  }

  // The boxes of the root buffers (inputs, Funcs computed at the root) that stage (f, stage)
  // touches while its loops cover `len` (through inlined Funcs), its own output included
  // when at the root; by buffer.
  const std::map<std::string, LineFootprint>& root_boxes(int f, int stage, const std::vector<double>& len) const {
    auto& bucket = by_placements_.boxes[ByPlacements::hash(placements_, f, stage, len)];
    for (const auto& [key, boxes] : bucket)
      if (key.is(placements_, f, stage, len)) return boxes;
    ++by_placements_.box_count;
    return bucket.emplace_front(ByPlacements::Key{placements_, f, stage, len}, compute_root_boxes(f, stage, len))
        .second;
  }

  std::map<std::string, LineFootprint> compute_root_boxes(int f, int stage, const std::vector<double>& len) const {
    std::map<std::string, LineFootprint> out;
    std::map<std::string, std::vector<double>> box;
    auto extents = [](const std::vector<hb::Range>& r) {
      std::vector<double> e;
      for (const hb::Range& x : r) e.push_back(double(std::max<int64_t>(1, x.extent())));
      return e;
    };
    auto merge = [&](const std::string& name, const std::vector<double>& w) {
      auto& b = box[name];
      b.resize(std::max(b.size(), w.size()), 0.0);
      for (size_t d = 0; d < w.size(); ++d) b[d] = std::max(b[d], w[d]);
    };
    const hb::FuncInfo& fi = kd_.funcs[f];
    const hb::StageInfo* st = stage_info(f, stage);
    if (state_[f].where == Where::Root && st) {
      std::vector<double> w(fi.args.size(), 1.0);
      for (size_t i = 0; i < st->loops.size() && i < len.size(); ++i)
        if (st->loops[i].arg_index >= 0 && st->loops[i].arg_index < int(w.size())) w[st->loops[i].arg_index] = len[i];
      merge(fi.name, w);
    }
    for_each_buffer_read(f, stage, len, std::vector<double>(len.size(), 0.0),
                         [&](const hb::Edge& e, int p, const std::vector<double>& l, const std::vector<double>&) {
                           if (p < 0 || state_[p].where == Where::Root) merge(e.producer, footprint(e, l));
                         });
    for (const auto& [name, w] : box) {
      std::vector<double> shape;
      int elem = 4;
      if (const hb::InputInfo* in = ki_.input(name)) {
        shape = extents(in->shape());
        elem = in->type.bytes();
      } else if (const int p = find(name); p >= 0) {
        shape = extents(kd_.funcs[p].region);
        elem = std::max(1, kd_.funcs[p].bytes_per_point);
      }
      out[name] = line_footprint(w, shape, elem, o_.cache_line_bytes);
    }
    return out;
  }

  // The Func at the root in whose loop nest Func f is computed (f itself at the root).
  int top_host(int f) const {
    int h = f;
    for (size_t hops = 0; state_[h].host >= 0 && hops < state_.size(); ++hops) h = state_[h].host;
    return h;
  }

  // Rows of root buffers open at once while the pure stage of Func h (at the root) walks its
  // loop nest with the Funcs computed in its tiles, whose reads follow h's walk, not their own:
  // what they read over h's loops inside the one where h's walk comes back along its rows stays
  // open with h's rows. box_blur's blur_x computed per 8 rows of a tile 32 rows deep reads all
  // 34 of the input's rows before blur_y's next tile across comes back to them (1.24x the time
  // of tiles 16 deep on a Xeon, where the model had priced them alike).
  double group_row_streams(int h) const {
    const FuncState& hs = state_[h];
    const hb::StageInfo& hst = kd_.funcs[h].stages[0];
    if (hs.choice.empty() || hs.extents.empty() || hs.extents[0].empty()) return 0;
    std::vector<int> guests;
    for (int q = 0; q < int(state_.size()); ++q)
      if (q != h && state_[q].resolved && state_[q].where != Where::Inline && !state_[q].extents.empty() &&
          top_host(q) == h)
        guests.push_back(q);
    const std::vector<NestLoop> nest = emitted_nest(hs.choice[0], hst, hs.extents[0]);
    // What it depends on: the placements, h's nest and its stages' extents, and its guests.
    std::vector<double> key = {double(placements_), double(h), double(nest.size())};
    for (const NestLoop& l : nest) key.insert(key.end(), {double(l.loop), l.extent});
    for (const std::vector<double>& e : hs.extents) {
      key.push_back(double(e.size()));
      key.insert(key.end(), e.begin(), e.end());
    }
    key.insert(key.end(), guests.begin(), guests.end());
    const auto [memo, added] = by_placements_.group_streams.try_emplace(std::move(key), 0.0);
    if (!added) return memo->second;
    std::vector<std::vector<double>> back = hs.extents;
    double streams = open_row_streams(nest, hs.extents[0].size(),
                                      [&](const std::vector<double>& len) -> const auto& { return root_boxes(h, hst.index, len); },
                                      &back[0]);
    const auto& own = root_boxes(h, hst.index, back[0]);
    std::map<std::string, double> guest_rows;  // buffers h itself does not touch
    for (int q : guests)
      for (const auto& [name, box] : root_boxes(q, kd_.funcs[q].stages[0].index, extents_under(q, h, back)[0]))
        if (!own.count(name)) guest_rows[name] = std::max(guest_rows[name], box.rows);
    for (const auto& [name, rows] : guest_rows) streams += rows;
    return memo->second = streams;
  }

  // Whether the accumulators of a register tile one step apart along its unrolled loops lie
  // a constant stride apart in the stage's buffer: the extents of the storage dimensions
  // inside that loop's are constants. LLVM keeps them in registers only then; at a stride
  // known at run time two of them might alias, and each is loaded and stored at every step
  // of the reduction (depthwise_separable_conv's pointwise update per row of its output,
  // 2 pixels by 4 vectors, ran 1.6x slower than per tile of 8 pixels by 16 channels, which
  // keeps 8 accumulators in registers).
  bool constant_unrolled_stride(int f, const std::vector<int>& tile_loops, const hb::StageInfo& st,
                                const std::vector<double>& ext) const {
    int unrolled_arg = 0;  // the outermost storage dimension an unrolled loop steps along
    for (int u : tile_loops)
      if (u >= 0 && u < int(st.loops.size())) unrolled_arg = std::max(unrolled_arg, st.loops[u].arg_index);
    if (unrolled_arg <= 0) return true;
    for (size_t i = 0; i < st.loops.size() && i < ext.size(); ++i) {
      const hb::LoopInfo& l = st.loops[i];
      if (l.arg_index >= 0 && l.arg_index < unrolled_arg && !constant_extent(f, l.var, ext[i] < double(l.extent), 0))
        return false;
    }
    return true;
  }

  // Whether Func f's buffer has a constant extent along its loop `var`: a split by a
  // constant bounds it (`split_below`: f's region there is a part of the loop), or the host
  // it is computed in splits its own loop of that name, or that loop's extent is constant
  // in turn. At the root, extents follow the output's, known at run time.
  bool constant_extent(int f, const std::string& var, bool split_below, int depth) const {
    const FuncState& s = state_[f];
    if (s.where == Where::Root || s.where == Where::Inline || s.host < 0 || depth > 8) return false;
    if (split_below) return true;
    const FuncState& hs = state_[s.host];
    if (hs.choice.empty() || hs.extents.empty()) return false;
    const hb::StageInfo& hst = kd_.funcs[s.host].stages[0];
    const StageChoice& hc = hs.choice[0];
    const int n = int(std::min({hst.loops.size(), hc.tile.size(), hs.extents[0].size()}));
    const std::vector<bool> unsplit = unsplit_whole_tiles(emitted_loops(hc, hst, n), hc.vector_loop, hc.vectorize,
                                                          hc.unrolled_loops(), kd_.funcs[s.host].vector_width,
                                                          o_.vector_loop_unrolled);
    for (int k = 0; k < n; ++k) {
      if (hst.loops[k].var != var || !hst.loops[k].is_pure) continue;
      if (hc.tile[k] > 1 && !unsplit[k]) return true;
      return constant_extent(s.host, var, hs.extents[0][k] < double(hst.loops[k].extent), depth + 1);
    }
    return false;
  }

  // Whether loop i's inner band, `len` long, is unrolled whole: by the schedule, or as the few
  // vectors along the vector loop that LLVM unrolls.
  bool unrolled_whole(const StageChoice& ch, int i, double len, int vw) const {
    if (i == ch.vector_loop && ch.vectorize) return len <= o_.vector_loop_unrolled * vw;
    const std::array<int, 2> unrolled = ch.unrolled_loops();
    return i == unrolled[0] || i == unrolled[1];
  }

  // The vectors of a stage's iterations unrolled together (unrolled_whole).
  double unrolled_vectors(const StageChoice& ch, const hb::StageInfo& st, const std::vector<double>& ext, int vw) const {
    double vectors = 1;
    for (size_t i = 0; i < ext.size() && i < ch.tile.size() && i < st.loops.size(); ++i) {
      if (!st.loops[i].is_pure) continue;
      const double len = inner_band_length(ch, ext, i);
      if (len > 1 && unrolled_whole(ch, int(i), len, vw)) vectors *= int(i) == ch.vector_loop && ch.vectorize ? std::ceil(len / vw) : len;
    }
    return vectors;
  }

  // Whether Func f, computed in its host's tiles, has a buffer sized at run time: the space
  // guards the tiles of a host unless it is at the root with exact splits (splits_exact).
  bool sized_at_run_time(int f) const {
    const int h = state_[f].host;
    if (h < 0 || state_[f].where == Where::Root || state_[f].where == Where::Inline) return false;
    if (state_[h].where != Where::Root || state_[h].choice.empty()) return true;
    const hb::StageInfo& st = kd_.funcs[h].stages[0];
    const StageChoice& ch = state_[h].choice[0];
    return !splits_exact(emitted_loops(ch, st, std::min(st.loops.size(), ch.tile.size())), ch.vector_loop,
                         ch.vectorize, kd_.funcs[h].vector_width);
  }

  // Whether Func p's buffer lives in vector registers: LLVM promotes a small stack buffer to
  // registers when every access to it has a constant index once its constant-trip loops are
  // unrolled, and then nothing stores or loads it. That holds for a Func computed per subtile
  // of its only reader, its host's pure stage (not stored further out: a sliding window's
  // buffer is indexed modulo its rows at run time), when it fits the register file (32 vectors
  // with AVX-512, 16 below), its storage has constant extents, its updates write one point
  // along their RDom loops, and the host's loops that move what it reads are vectorized or
  // unrolled. depthwise_separable_conv's pointwise per 2x2 pixels (16 vectors: bias, update
  // and relu straight from registers) ran 0.81 as long as per 8x4 (a stack buffer stored and
  // reloaded around every register tile), alone on one thread: 32-vector productions ran as
  // the 2x2 ones, 64-vector ones 1.07-1.13x, 128-vector ones 1.23x. A buffer read at several
  // offsets along the host's vectors (max_filter's x + dx) stays on the stack: priced as
  // registers, max_filter's pick ran 1.06-1.07x as long as the one pricing its loads.
  // The buffers a host's subtiles hold in registers share the file with the host's own
  // unrolled tile: harris's sum_xy and sum_yy per 64 x 4 output pixels (16 AVX-512 vectors
  // each, beside the output's 16) made it 1.32x as long as with them inlined, not faster.
  bool in_registers(int p) const {
    if (!fits_registers_alone(p)) return false;
    const int h = state_[p].host;
    const FuncState& hs = state_[h];
    double vectors = unrolled_vectors(hs.choice[0], kd_.funcs[h].stages[0], hs.extents[0], kd_.funcs[h].vector_width);
    for (size_t q = 0; q < state_.size(); ++q)
      if (state_[q].host == h && state_[q].where == Where::Subtile && (int(q) == p || fits_registers_alone(int(q))))
        vectors += std::ceil(state_[q].buffer_bytes / m_.vector_bytes);
    return vectors <= vector_registers(m_);
  }
  // in_registers's conditions on p and its host, without the other buffers held there.
  bool fits_registers_alone(int p) const {
    const FuncState& s = state_[p];
    if (!s.resolved || s.where != Where::Subtile || s.sliding || s.host < 0 || s.choice.empty() || s.extents.empty())
      return false;
    if (s.buffer_bytes <= 0 || s.buffer_bytes > double(vector_registers(m_)) * m_.vector_bytes) return false;
    const hb::FuncInfo& pi = kd_.funcs[p];
    for (size_t k = 0; k < pi.stages.size() && k < s.choice.size() && k < s.extents.size(); ++k) {
      const hb::StageInfo& st = pi.stages[k];
      if (!s.choice[k].vectorize) return false;
      for (size_t i = 0; i < st.loops.size() && i < s.extents[k].size(); ++i) {
        const hb::LoopInfo& l = st.loops[i];
        if (k == 0 && s.extents[k][i] > 1 && !constant_extent(p, l.var, s.extents[k][i] < double(l.extent), 0))
          return false;
        if (l.is_pure) continue;
        // An RDom loop moving the point the update writes (a scan, a histogram) indexes the
        // buffer at run time.
        if (read_moves_along(p, st.index, s.extents[k], int(i), p)) return false;
      }
    }
    const int h = s.host;
    const FuncState& hs = state_[h];
    if (hs.choice.empty() || hs.extents.empty()) return false;
    const StageChoice& hc = hs.choice[0];
    for (const hb::Edge* e : ki_.edges_from(p)) {
      if (e->consumer != kd_.funcs[h].name || e->consumer_stage != 0) return false;
      // Read at several offsets along the host's vectors (max_filter's x + dx): the vectors
      // straddle the buffer's, so it stays on the stack and every read is a load.
      if (hc.vectorize && hc.vector_loop >= 0)
        for (const hb::AccessDim& a : e->footprint)
          if (!a.affine || (size_t(hc.vector_loop) < a.coeffs.size() && a.coeffs[hc.vector_loop].num != 0 && a.width() > 1))
            return false;
    }
    const hb::StageInfo& hst = kd_.funcs[h].stages[0];
    const std::vector<double>& hext = hs.extents[0];
    const int hvw = kd_.funcs[h].vector_width;
    for (size_t i = 0; i < hst.loops.size() && i < hext.size() && i < hc.tile.size(); ++i) {
      const double len = inner_band_length(hc, hext, i);  // 1 outside the inner band: between productions
      if (len <= 1 || unrolled_whole(hc, int(i), len, hvw) || len <= o_.llvm_unrolled_trips) continue;
      if (read_moves_along(h, 0, hext, int(i), p)) return false;
    }
    return true;
  }

  // Whether stage (f, stage), over per-production extents `ext`, reads Func p at another point
  // per step of its loop `loop` (a lookup always may).
  bool read_moves_along(int f, int stage, const std::vector<double>& ext, int loop, int p) const {
    std::vector<double> along(ext.size(), 0.0);
    along[loop] = 1;
    bool moves = false;
    for_each_buffer_read(f, stage, ext, along,
                         [&](const hb::Edge& e, int q, const std::vector<double>&, const std::vector<double>& step) {
                           if (q != p) return;
                           const auto moved = producer_step(e, step);
                           moves |= std::any_of(e.footprint.begin(), e.footprint.end(),
                                                [](const hb::AccessDim& a) { return !a.affine; }) ||
                                    std::any_of(moved.begin(), moved.end(), [](double m) { return m != 0; });
                         });
    return moves;
  }

  // Stage (f, stage)'s operations per point through inlined Funcs, its lane-by-lane
  // operations and its reads, as vectorized by `ch` at width `vw`; kept under the placements.
  const ByPlacements::StageOps& stage_invariants(int f, int stage, const hb::StageInfo& st, const StageChoice& ch,
                                                 int vw) const {
    const std::array<int, 6> key = {placements_, f, stage, ch.vectorize, ch.vector_loop, vw};
    const auto [it, added] = by_placements_.stage_ops.try_emplace(key);
    ByPlacements::StageOps& out = it->second;
    if (!added) return out;
    std::map<std::string, double> ops_map;
    const bool vector_walk = ch.vectorize && ch.vector_loop >= 0 && !st.loops.empty();
    stage_ops(f, stage, ops_map, std::vector<double>(st.loops.size(), 1.0), 0, vector_walk ? &out.clamp_ops : nullptr,
              ch.vector_loop);
    // Vectorized, the stage's own operations that do not vary along the vector loop run once
    // per vector. depthwise_separable_conv's input_padded, vectorized over channels, tests x
    // and y against the image (11 of its 12 operations) once per 16 lanes.
    if (ch.vectorize && ch.vector_loop >= 0 && ch.vector_loop < int(st.ops_uniform_along.size()))
      for (const auto& [t, n] : weighted_ops(st.ops_uniform_along[ch.vector_loop])) ops_map[t] -= n * (1 - 1.0 / vw);
    out.ops.assign(ops_map.begin(), ops_map.end());
    out.lane_by_lane = lane_by_lane_per_point(f, stage, 0, ch.vectorize ? ch.vector_loop : -1);
    for (int i = 0; i < int(st.loops.size()); ++i) {
      if (!st.loops[i].is_pure || i == ch.vector_loop) continue;
      const LaneByLane along = lane_by_lane_per_point(f, stage, 0, i);
      if (along.boundary_loads > 0)
        out.clamped_along.push_back({st.loops[i].arg_index, {along.boundary_below, along.boundary_above}});
    }
    const std::vector<double> ones(st.loops.size(), 1.0), still(st.loops.size(), 0.0);
    for_each_buffer_read(f, stage, ones, still,
                         [&](const hb::Edge& e, int, const std::vector<double>& len, const std::vector<double>&,
                             double evals) {
                           auto& [sites, points] = out.reads_of[e.producer];
                           sites += e.calls * evals;
                           points = std::max(points, product(footprint(e, len)));
                         });
    for_each_buffer_read(f, stage, full_extents(f)[size_t(&st - kd_.funcs[f].stages.data())], still,
                         [&](const hb::Edge& e, int p, const std::vector<double>& len, const std::vector<double>&) {
                           double& b = out.whole_bytes[&e];
                           b = std::max(b, product(footprint(e, len)) * element_bytes(e, p));
                         });
    return out;
  }

  StageCost stage_cost(int f, int stage) const {
    const hb::FuncInfo& fi = kd_.funcs[f];
    const FuncState& s = state_[f];
    size_t k = 0;
    for (; k < fi.stages.size(); ++k)
      if (fi.stages[k].index == stage) break;
    const hb::StageInfo& st = fi.stages[k];
    const StageChoice& ch = s.choice[k];
    const std::vector<double>& ext = s.extents[k];
    const StageView* sv = stage_view(view_of(f), stage);
    StageCost c;
    c.func = fi.name;
    c.stage = stage;
    c.where = s.where;
    c.sliding = s.sliding;
    c.unfolded = s.unfolded;
    c.parallel = ch.parallel;
    c.vectorize = ch.vectorize;
    c.unroll = ch.unroll;
    c.productions = s.productions;
    const double per_production = product(ext);
    c.tail_waste = tail_waste(ch, ext);
    c.points_computed = s.productions * per_production * c.tail_waste;
    c.recompute = c.points_computed / std::max(1.0, double(st.points()));

    // Cores: the stage's own parallel loop at the root, else its consumer's.
    double cores = s.cores, eff = s.core_efficiency;
    double tasks = 0;
    if (s.where == Where::Root) {
      if (ch.parallel && !ext.empty()) {
        tasks = parallel_tasks(ch, ext);
        cores = std::min<double>(m_.cores, tasks);
        eff = tasks / (std::ceil(tasks / m_.cores) * m_.cores) * m_.cores / cores;
      } else {
        cores = 1;
        eff = 1;
      }
    }
    c.cores_used = cores * eff;

    // Vectorization efficiency: lanes computed vs useful over the inner extent.
    const int vw = sv && sv->vector_width > 0 ? sv->vector_width : fi.vector_width;
    if (ch.vectorize && ch.vector_loop >= 0) {
      const int v = ch.vector_loop;
      const double inner = ch.tile[v] > 1 ? std::min(ext[v], double(ch.subtile[v])) : ext[v];
      c.vector_efficiency = inner / (std::ceil(inner / vw) * vw);
    }

    const ByPlacements::StageOps& invariant = stage_invariants(f, stage, st, ch, vw);
    const LaneByLane& lane_by_lane = invariant.lane_by_lane;
    std::vector<std::pair<std::string, double>> ops = invariant.ops;
    // Loop partitioning runs the interior without a boundary condition's clamps; only the edge
    // iterations pay for them. box_blur with its clamp inlined into blur_x ran 0.69-0.71 ms,
    // with it computed per row apart 0.80-0.85 ms (Zen 4), where clamps priced on every lane
    // had the order the other way round.
    if (invariant.clamp_ops > 0) {
      const double edge =
          clamped_share(f, ch, st, ext, vw, lane_by_lane.boundary_below, lane_by_lane.boundary_above,
                        invariant.clamped_along);
      auto int32 = std::lower_bound(ops.begin(), ops.end(), std::string("int32"),
                                    [](const auto& op, const std::string& t) { return op.first < t; });
      if (int32 == ops.end() || int32->first != "int32") int32 = ops.insert(int32, {"int32", 0.0});
      int32->second = std::max(0.0, int32->second - invariant.clamp_ops * o_.index_op_weight * (1 - edge));
    }
    for (const auto& [t, n] : ops) c.ops_per_point += n;
    // Accumulators an update keeps in registers (0: no register tile).
    std::vector<int> tile_loops;  // unrolled, by the schedule or by LLVM
    const double tile_vectors = register_tile_vectors(ch, st, ext, vw, o_, &tile_loops);
    for (int u : ch.unrolled_loops()) tile_loops.push_back(u);
    const bool register_tile = tile_vectors > 0 && tile_vectors <= vector_registers(m_) - o_.operand_registers &&
                               constant_unrolled_stride(f, tile_loops, st, ext);
    // Loads per step of a register tile's reduction: a vector load per vector along the vector
    // loop and a broadcast per unrolled column (an outer product, as in matmul or conv).
    double tile_vectors_along_vector_loop = 1, tile_loads_per_step = 0;
    if (register_tile && ch.vector_loop >= 0) {
      const int v = ch.vector_loop;
      tile_vectors_along_vector_loop = std::ceil(inner_band_length(ch, ext, size_t(v)) / vw);
      tile_loads_per_step = tile_vectors_along_vector_loop + tile_vectors / tile_vectors_along_vector_loop;
    }
    // A register tile's reduction short enough that the core runs ahead into the next tile's
    // keeps more accumulator chains in flight than the tile holds: depthwise_separable_conv's
    // pointwise as tiles of 4 accumulators ran as fast as of 8 over 8 input channels, 1.16x as
    // long over 16 and 1.28x over 64 (alone, one thread), where the long reductions of the
    // calibration take 1.44x.
    double reduction_trips = 1;  // the RDom loops' steps per production: one sweep of a register tile
    for (size_t i = 0; i < st.loops.size() && i < ext.size(); ++i)
      if (!st.loops[i].is_pure) reduction_trips *= ext[i];
    const double tile_overlap =
        register_tile ? m_.register_tile_overlap(reduction_trips, register_tile_step_ops(tile_vectors, tile_loads_per_step))
                      : 1.0;
    c.compute_s = c.points_computed / c.vector_efficiency *
                  compute_seconds_per_point(ops, f, stage, register_tile ? tile_vectors : 0, tile_loads_per_step,
                                            tile_overlap) /
                  c.cores_used;
    // A scan whose innermost loop carries its own dependency (iir_blur's: each step reads what
    // the last one stored) waits a step's latency per point; independent iterations inside
    // that loop (unrolled rows) hide it. iir_blur's anticausal scan with rows unrolled inside
    // its RDom loop took 0.09 ms in all, with the RDom loop innermost 0.20 ms.
    if (!ext.empty() && carries_a_dependency(f, stage, ch.innermost))
      c.compute_s = std::max(c.compute_s, c.points_computed * m_.recurrence_step_s / c.cores_used);
    // Integer divisions by a runtime value run lane by lane, vectorized or not.
    if (lane_by_lane.divisions > 0)
      c.compute_s += c.points_computed * lane_by_lane.divisions / c.vector_efficiency /
                     std::max(m_.variable_division_lanes_per_s * c.cores_used, 1.0);

    // Memory: producers' footprints per production from the level holding them.
    const double streamed = pipeline_bytes();
    // Rows of root buffers the walk keeps open at once: streams for the prefetchers of DRAM and
    // of L3. box_blur's output walked down strips 64 wide in tiles of 16 to 256 rows ran 1.35 to
    // 1.85 ms on a Xeon whose buffers fit its L3, priced 1.05 to 0.97 ms by the inner band's rows.
    const int top = top_host(f);
    const double row_streams =
        ext.empty() ? 0.0
        : top != f || k == 0
            ? group_row_streams(top)
            : open_row_streams(emitted_nest(ch, st, ext), ext.size(),
                               [&](const std::vector<double>& len) -> const auto& { return root_boxes(f, stage, len); });
    const double dram_share = m_.row_stream_share(row_streams);
    const double l3_share = m_.row_stream_share(row_streams, true);
    std::map<std::pair<int, Where>, double> host_tiles;  // bytes_per_host_tile, once per tile kind
    auto host_tile_bytes = [&](int h, Where level) {
      auto it = host_tiles.find({h, level});
      return it != host_tiles.end() ? it->second : host_tiles[{h, level}] = bytes_per_host_tile(h, level);
    };
    // Bandwidth from `level` for a working set of `bytes`. The last cache level is shared
    // (with other cores, and in a virtual machine with other tenants): it holds what its
    // calibration measured (16 MB of the Zen 4's nominal 32), and a working set beyond that,
    // up to the nominal capacity, finds that share of its lines there and the rest in DRAM.
    // Two threads reading on the Zen 4: 94 GB/s at 16 MB, 57 at 28, 51 at 32, 36 at 48 (this
    // blend: 49, 46, 38). harris with its gradients at the root (28 MB in all) ran 1.75x the
    // time of the same stages computed per output tile, which the model had priced 3% apart.
    // `followed`: as fast as when the prefetchers follow every row (the shares 1).
    auto bandwidth_of = [&](const Bandwidth& level, double bytes, bool followed = false) {
      const double dram = followed ? 1.0 : dram_share, l3 = followed ? 1.0 : l3_share;
      const Bandwidth &memory = m_.bandwidth.back(), &last_cache = m_.bandwidth.end()[-2];
      // A level's rate, scaled by the share of it the row streams get past the private caches.
      auto rate = [&](const Bandwidth& l) {
        return l.with_cores(cores, m_.cores) * (&l == &memory ? dram : &l == &last_cache ? l3 : 1.0);
      };
      // `hit` of the lines from `near`, the rest from `far`.
      auto blend = [](double hit, double near, double far) { return 1 / (hit / near + (1 - hit) / std::max(far, 1.0)); };
      if (&level == &memory) return rate(level);
      // Not DRAM, so at least two levels: the last cache is the one before DRAM.
      if (&level != &last_cache) {
        // A core's share of L2 that set conflicts evict between passes comes from the level past
        // it (CacheGeometry::conflict_miss_share).
        const double missed = level.level == "L2" ? m_.l2_conflict_miss_share(bytes / m_.cores) : 0;
        return missed > 0 ? blend(1 - missed, rate(level), rate(*(&level + 1))) : rate(level);
      }
      if (bytes <= double(level.bytes)) return rate(level);
      return blend(double(level.bytes) / bytes, rate(level), rate(memory));
    };
    // Seconds to move `bytes` from `level` (a working set of `resident` bytes). What rows past
    // those the prefetchers follow add is the core waiting for lines one by one: it does not
    // overlap the arithmetic (`stall_s`; box_blur's output walked 256 rows deep instead of 16,
    // 1.37x as long on a Xeon).
    double stall_s = 0;
    auto transfer_s = [&](double bytes, const Bandwidth& level, double resident, double& stalled) {
      const double t = bytes / std::max(bandwidth_of(level, resident), 1.0);
      stalled += std::max(0.0, t - bytes / std::max(bandwidth_of(level, resident, true), 1.0));
      return t;
    };
    // transfer_s for root buffer `buffer` at `level`: from L2, the share of its lines that
    // another core's pass left in L3 comes from there (l2_share).
    const Bandwidth& past_l2 = m_.level_for(double(m_.capacity("L2")) + 1);
    auto root_transfer_s = [&](const std::string& buffer, double bytes, const Bandwidth& level, double resident,
                               double& stalled) {
      const double in_l2 = level.level == "L2" ? l2_share(buffer, resident) : 1.0;
      double t = transfer_s(bytes * in_l2, level, resident, stalled);
      if (in_l2 < 1) t += transfer_s(bytes * (1 - in_l2), past_l2, resident, stalled);
      return t;
    };
    const double bw_l1 = m_.bandwidth.empty() ? 1e12 : m_.bandwidth.front().with_cores(cores, m_.cores);
    double loads_per_point = 0;
    StageCost::LoadParts& parts = c.load_parts;
    // Each read with the region it covers and how the reading loops move per step of the
    // emitted innermost loop (through inlined Funcs: their loops).
    std::vector<double> unit(ext.size(), 0.0);
    if (!unit.empty()) unit[ch.innermost] = 1;
    const double inner_extent = ext.empty() ? 1 : innermost_extent(ch, ext, ch.innermost);
    // A register tile loads and stores its accumulators once per reduction (reduction_trips),
    // and a read that does not move along one of its loops once for all that loop's steps.
    // Reads that stay put along a loop of the register tile: loaded once for all its steps.
    auto reads_fixed_along = [&](int loop) {
      std::set<const hb::Edge*> fixed;
      std::vector<double> along(ext.size(), 0.0);
      along[loop] = 1;
      for_each_buffer_read(f, stage, ext, along, [&](const hb::Edge& e, int, const std::vector<double>&,
                                                     const std::vector<double>& step) {
        const auto moved = producer_step(e, step);
        if (std::all_of(moved.begin(), moved.end(), [](double m) { return m == 0; })) fixed.insert(&e);
      });
      return fixed;
    };
    // Per unrolled loop of the tile (by the schedule or by LLVM): the reads fixed along it,
    // shared by its steps.
    std::vector<std::pair<std::set<const hb::Edge*>, double>> shared_by_unrolled;
    if (register_tile)
      for (int u : tile_loops)
        if (u >= 0) shared_by_unrolled.push_back({reads_fixed_along(u), std::max(1.0, ch.subtile[u] * 1.0)});
    std::set<const hb::Edge*> shared_by_vectors;
    if (tile_vectors_along_vector_loop > 1) shared_by_vectors = reads_fixed_along(ch.vector_loop);
    // Root buffers read over all productions together: a production's stencil halo overlaps
    // the next one's, and what the last production read is still cached (unsharp_mask's gray
    // per 4 output rows reads 10 input rows, 6 of them read just before).
    const bool reread_across_productions = s.productions > 1;
    const double reread_bytes = s.host >= 0 ? host_tile_bytes(s.host, s.where) * m_.cores : 0;
    const Bandwidth* reread_level = s.host >= 0 ? &m_.level_for(reread_bytes) : nullptr;
    // Loads of a buffer per point: its reads through every inlined Func, but no more than the
    // distinct points one point reads of it (Halide shares identical loads in an expression:
    // harris's box filters read grad_x through inlined grad_xx and grad_xy at the same 9
    // points, 9 loads where the call sites count 27).
    const auto& reads_of = invariant.reads_of;
    // Buffers kept in vector registers (in_registers): read without a load.
    std::map<int, bool> registers_hold;
    auto held_in_registers = [&](int p) {
      const auto [it, added] = registers_hold.try_emplace(p, false);
      if (added && p >= 0) it->second = in_registers(p);
      return it->second;
    };
    for_each_buffer_read(f, stage, ext, unit, [&](const hb::Edge& edge, int p, const std::vector<double>& len,
                                                  const std::vector<double>& step, double evals) {
      const hb::Edge* e = &edge;
      if (held_in_registers(p)) return;
      const auto& [sites, points] = reads_of.at(e->producer);
      double calls = e->calls * evals * (sites > points ? points / sites : 1.0);
      if (register_tile && p == f) calls /= reduction_trips;  // the accumulators
      for (const auto& [shared, steps] : shared_by_unrolled)
        if (shared.count(e)) calls /= steps;
      if (shared_by_vectors.count(e)) calls /= tile_vectors_along_vector_loop;
      loads_per_point += calls;
      const auto w = footprint(*e, len);
      double bytes = product(w);
      double total_bytes = 0, resident_bytes = 0;  // the buffer; what must fit to keep it cached
      if (e->producer_is_input) {
        const hb::InputInfo* in = ki_.input(*e);
        bytes *= in ? in->type.bytes() : 4;
        total_bytes = in ? root_buffer_bytes(e->producer) : bytes;
        resident_bytes = std::max(total_bytes, streamed);
      } else if (p >= 0) {
        bytes *= kd_.funcs[p].bytes_per_point;
        const bool root = state_[p].where == Where::Root;
        total_bytes = root ? root_buffer_bytes(e->producer) : state_[p].buffer_bytes * m_.cores;
        resident_bytes = root ? std::max(total_bytes, streamed) : total_bytes;
        if (!root && state_[p].host >= 0)
          resident_bytes = std::max(resident_bytes, host_tile_bytes(state_[p].host, state_[p].where) * m_.cores);
      }
      c.footprint_bytes += bytes;
      // A footprint that stays in L1 costs only its load instructions, charged below for
      // every load; from further out, its lines come in once per production.
      const Bandwidth& level = m_.level_for(resident_bytes);
      const bool root_buffer = e->producer_is_input || (p >= 0 && state_[p].where == Where::Root);
      if (root_buffer && &level != &m_.bandwidth.front()) {
        double fresh = s.productions * bytes, reread = 0;
        const auto w = invariant.whole_bytes.find(e);
        if (reread_across_productions && w != invariant.whole_bytes.end() && reread_level &&
            reread_level->bytes < level.bytes) {
          reread = std::max(0.0, fresh - w->second);
          fresh -= reread;
        }
        // A reader computed in this stage's loop nest, or before it in the same tile, has just
        // brought these lines in (unsharp_mask's output reads the input rows gray read).
        double warm_bytes = resident_bytes;
        const Bandwidth& from = warm_level(f, e->producer, level, warm_bytes);
        parts.levels_s += &from == &level ? root_transfer_s(e->producer, fresh, level, resident_bytes, stall_s)
                                          : transfer_s(fresh, from, warm_bytes, stall_s);
        if (reread > 0 && reread_level != &m_.bandwidth.front())
          parts.levels_s += transfer_s(reread, *reread_level, reread_bytes, stall_s);
      } else if (&level != &m_.bandwidth.front()) {
        parts.levels_s += transfer_s(s.productions * bytes, level, resident_bytes, stall_s);
      }
      // Strided innermost access: a cache line per point, from where the lines the
      // innermost loop touches fit.
      const double stride = innermost_stride_bytes(*e, p, step);
      if (stride >= o_.cache_line_bytes && !ext.empty())
        parts.strided_s += strided_walk_s(c.points_computed * calls / c.vector_efficiency, inner_extent, stride,
                                          total_bytes, cores);
    });
    // Every load instruction is served by L1 at least.
    const double elem = std::max(1, fi.bytes_per_point);
    parts.l1_s = c.points_computed * loads_per_point * elem / c.vector_efficiency / std::max(bw_l1, 1.0);
    // A load at data-dependent indices in a vectorized loop is a gather: where plain code
    // loads a vector, it loads lane by lane (unvectorized code already pays per lane).
    double gathered = ch.vectorize ? lane_by_lane.gathers : 0;
    if (ch.vectorize && ch.vector_loop >= 0 && !ext.empty()) {
      // Vector lanes that step through a buffer by more than a few elements (the vector loop
      // runs along an outer dimension of it) load lane by lane; Halide loads strides up to 4
      // densely and shuffles. A stage whose vector loop is not its innermost storage dimension
      // stores lane by lane too (iir_blur's scan along x, vectorized across rows: 0.30 ms
      // measured, 0.14 ms unvectorized).
      std::vector<double> along(ext.size(), 0.0);
      along[ch.vector_loop] = 1;
      for_each_buffer_read(f, stage, ext, along, [&](const hb::Edge& e, int p, const std::vector<double>&,
                                                     const std::vector<double>& step) {
        if (!e.data_dependent() && innermost_stride_elements(e, p, step) > o_.dense_vector_stride) gathered += e.calls;
      });
      if (st.loops[ch.vector_loop].arg_index > 0) gathered += 1;
      // Loads through a boundary condition gather where loop partitioning leaves the clamp.
      if (lane_by_lane.boundary_loads > 0)
        gathered += lane_by_lane.boundary_loads * clamped_share(f, ch, st, ext, vw, lane_by_lane.boundary_below,
                                                                lane_by_lane.boundary_above, invariant.clamped_along);
    }
    if (gathered > 0)
      parts.gathers_s = c.points_computed * gathered / c.vector_efficiency / std::max(m_.gather_lanes_per_s * c.cores_used, 1.0);
    // Walks down columns of root buffers that lose their lines from L2 between passes.
    if (m_.column_walk.all_cores > 0 && !ext.empty()) {
      const double l2_lines = double(m_.l2_bytes) / o_.cache_line_bytes;
      const auto walked = column_walk_lines(emitted_nest(ch, st, ext), ext.size(),
                                            [&](const std::vector<double>& len) -> const auto& { return root_boxes(f, stage, len); },
                                            m_.l2_geometry, l2_lines);
      for (const auto& [buffer, lines] : walked) {
        c.column_walk_lines += s.productions * lines;
        parts.column_walk_s += s.productions * lines /
                               std::max(1.0, column_walk_rate(m_, std::max(root_buffer_bytes(buffer), streamed), cores));
      }
    }
    c.load_s = parts.levels_s + parts.strided_s + parts.l1_s + parts.gathers_s + parts.column_walk_s;
    // An unfolded window's stores walk through the allocations of every unfolded window beside
    // it, from one strip to the next: max_filter's two sliding down strips of 256 rows hold
    // 2.2 MB a core, past a 2 MiB L2, and ran 1.04-1.05x as long as in strips of 64 rows
    // (0.7 MB), which compute a fifth more of them.
    const double out_total =
        s.where == Where::Root ? std::max(double(fi.points()) * fi.bytes_per_point, streamed)
                               : (s.unfolded ? unfolded_allocations_beside(f) : s.buffer_bytes) * m_.cores;
    double store_stall_s = 0;
    const double stored = c.points_computed * fi.bytes_per_point;
    c.store_s = s.where == Where::Root ? root_transfer_s(fi.name, stored, m_.level_for(out_total), out_total, store_stall_s)
                                       : transfer_s(stored, m_.level_for(out_total), out_total, store_stall_s);
    // Stores along an innermost loop that runs down an outer dimension of the buffer.
    if (s.where == Where::Root && !ext.empty() && ch.innermost >= 0) {
      const int arg = st.loops[ch.innermost].arg_index;
      double stride = fi.bytes_per_point;
      for (int d = 0; d < arg && d < int(fi.region.size()); ++d)
        stride *= double(std::max<int64_t>(1, fi.region[d].extent()));
      if (arg > 0 && stride >= o_.cache_line_bytes)
        c.store_s += strided_walk_s(c.points_computed / c.vector_efficiency, inner_extent, stride,
                                    root_buffer_bytes(fi.name), cores);
    }
    if (register_tile) {
      c.store_s /= reduction_trips;
      store_stall_s /= reduction_trips;
    }
    c.in_registers = held_in_registers(f);
    if (c.in_registers) c.store_s = store_stall_s = 0;
    c.stall_s = stall_s + store_stall_s;

    // Overheads.
    if (s.where != Where::Root && stage == 0 && s.allocation_bytes > o_.stack_allocation_bytes)
      c.allocation_s = s.realizations * m_.allocation_s / c.cores_used;
    else if (stage == 0 && sized_at_run_time(f))
      c.allocation_s = s.realizations * o_.small_heap_allocation_ops / std::max(m_.scalar.int32, 1.0) / c.cores_used;
    double inner_iters = c.points_computed;
    if (ch.vectorize) inner_iters /= vw;
    if (register_tile) {
      inner_iters /= tile_vectors;  // one iteration of the innermost RDom loop updates the whole tile
    } else {
      for (int u : ch.unrolled_loops())
        if (u >= 0) inner_iters /= std::max<double>(1, std::min<double>(ext[u], ch.subtile[u]));
    }
    c.realizations = k == 0 ? s.realizations : 0;
    c.buffer_bytes = s.allocation_bytes;
    c.parallel_tasks = tasks;
    c.loads_per_point = loads_per_point;
    c.innermost_iterations = inner_iters;
    c.vector_width = vw;
    c.vector_loop = ch.vector_loop;
    c.unroll_loop = ch.unroll_loop;
    c.third_loop = ch.third_loop;
    c.innermost_loop = ch.innermost;
    c.innermost_extent = inner_extent;
    c.extents = ext;
    c.inner_tile = band_lengths(ch, ext, true);
    c.loop_s = inner_iters * o_.loop_iteration_ops / std::max(m_.scalar.int32, 1.0) / c.cores_used;

    // A register tile whose buffer is not held in registers loads its accumulators before each
    // sweep of the reduction and stores them after it: core time beside its arithmetic (a
    // memory-bound stage hides it behind its loads).
    if (register_tile && !c.in_registers) {
      const double accumulator_vectors = c.points_computed / reduction_trips / (ch.vectorize ? vw : 1);
      c.compute_s += accumulator_vectors * o_.accumulator_round_trip_ops / std::max(m_.scalar.int32, 1.0) / c.cores_used;
    }
    const double memory_s = c.load_s + c.store_s - c.stall_s;
    const double work_s = std::max(c.compute_s, memory_s) + o_.unhidden_overlap_share * std::min(c.compute_s, memory_s) +
                          c.stall_s;
    if (s.where == Where::Root && ch.parallel) {
      c.parallel_s = m_.parallel_launch_s + tasks * m_.parallel_task_s / cores;
      if (cores > 1) {
        // The calling thread starts at once; the pool's workers join after a delay, while one
        // core works alone. With one task per core that core finishes the others' tasks if
        // they are late; with many tasks the latecomers still take their share.
        const double lone_share = std::max(1.0 - 1.0 / cores, cores / std::max(tasks, cores));
        c.parallel_s += std::min(m_.parallel_join_s, work_s) * lone_share;
      }
    }
    c.total_s = work_s + c.parallel_s + c.allocation_s + c.loop_s;
    return c;
  }
};

}  // namespace

AnalyticModel::AnalyticModel(MachineDescription machine, AnalyticModelOptions options)
    : machine_(std::move(machine)), options_(options) {}

Prediction AnalyticModel::explain(const hb::KernelDescription& kd, const ScheduleView& view) const {
  const KernelIndex index(kd);
  return Evaluator(kd, index, view, machine_, options_).run();
}

Prediction AnalyticModel::explain(const hb::KernelDescription& kd, const ScheduleView& view,
                                  EvaluationCache& cache) const {
  EvaluationCache::Shared& shared = cache.shared_for(kd, *this);
  return Evaluator(kd, *shared.index, view, machine_, options_, &shared.roots, &shared.by_placements).run();
}

double AnalyticModel::predict(const hb::KernelDescription& kd, const ScheduleView& view) const {
  return explain(kd, view).seconds;
}

void AnalyticModel::predict(const hb::KernelDescription& kd, const std::vector<ScheduleView>& views,
                            std::vector<double>& seconds) const {
  seconds.resize(views.size());
  EvaluationCache cache;
  for (size_t i = 0; i < views.size(); ++i) seconds[i] = explain(kd, views[i], cache).seconds;
}

void predict(const hb::KernelDescription& kd, const std::vector<ScheduleView>& views,
             const MachineDescription& machine, std::vector<double>& seconds) {
  AnalyticModel(machine).predict(kd, views, seconds);
}

}  // namespace candor::models::halide
