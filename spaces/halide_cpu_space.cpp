#include "halide_cpu_space.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

namespace candor {

namespace gen = spaces::halide_cpu;
namespace hb = halide_bridge;

// The objects of the instance and how they map back to the kernel description.
struct HalideCpuSpace::Layout {
  gen::Input input;
  std::vector<StageRef> stages;
  std::vector<LoopRef> loops;
  std::vector<std::vector<int>> func_stages;
  std::vector<std::vector<int>> hosts;  // func -> the Funcs it may be computed in, nearest first
  std::map<std::pair<int, int>, std::vector<int>> host_loops;  // (func, host) -> HostLoops by dimension
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
// first: the first is the vector loop, the second the loop unrolled under it, the third the
// loop unrolled with the second in a two-loop register tile.
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

namespace {

// The edges reading each Func from another Func (KernelDescription::edges_from), by the
// producer's position, with each consumer's position: looked up once, as add_hosts asks
// for them inside loops over producers, hosts and the Funcs between (each lookup a scan of
// every edge: 70% of building the space of a 495-Func network).
struct ReadIndex {
  std::vector<std::vector<const hb::Edge*>> from;
  std::map<std::string, int> position;

  explicit ReadIndex(const hb::KernelDescription& kd) : from(kd.funcs.size()) {
    for (int f = 0; f < static_cast<int>(kd.funcs.size()); ++f) position[kd.funcs[f].name] = f;
    for (const hb::Edge& e : kd.edges) {
      const auto p = position.find(e.producer);
      if (!e.producer_is_input && e.producer != e.consumer && p != position.end()) from[p->second].push_back(&e);
    }
  }
  // The position of Func `name`, or -1.
  int of(const std::string& name) const {
    const auto p = position.find(name);
    return p == position.end() ? -1 : p->second;
  }
};

// Along which loop of host h's pure stage each dimension of Func f is read, through every
// path of reads from f to h, each step a single non-zero coefficient |a| <= 1 (-1: not
// so). `reach[a][b]`: a path of reads leads from a to b.
class HostLoops {
 public:
  HostLoops(const hb::KernelDescription& kd, const ReadIndex& reads, const std::vector<std::vector<char>>& reach)
      : kd_(kd), reads_(reads), reach_(reach) {}

  int operator()(int f, int d, int h) {
    const auto key = std::make_tuple(f, d, h);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    int found = -2;
    for (const hb::Edge* e : reads_.from[f]) {
      const int k = reads_.of(e->consumer);
      if (k < 0 || k == f || (k != h && !(reach_[f][k] && reach_[k][h]))) continue;
      const int here = step(*e, kd_.funcs[k], d, k, h);
      if (here < 0 || (found >= 0 && found != here)) {
        found = -1;
        break;
      }
      found = here;
    }
    return memo_[key] = found < 0 ? -1 : found;
  }

 private:
  // Where edge e (f into consumer k) takes f's dimension d: a loop of h, or -1.
  int step(const hb::Edge& e, const hb::FuncInfo& consumer, int d, int k, int h) {
    if (d >= static_cast<int>(e.footprint.size())) return -1;
    const hb::AccessDim& access = e.footprint[d];
    int along = -1, nonzero = 0;
    for (size_t j = 0; j < access.coeffs.size(); ++j) {
      if (access.coeffs[j].num == 0) continue;
      ++nonzero;
      along = static_cast<int>(j);
    }
    if (!access.affine || nonzero != 1 || std::abs(access.coeffs[along].value()) > 1) return -1;
    const hb::StageInfo* stage = nullptr;
    for (const hb::StageInfo& st : consumer.stages)
      if (st.index == e.consumer_stage) stage = &st;
    if (!stage || along >= static_cast<int>(stage->loops.size())) return -1;
    if (k == h) return e.consumer_stage == 0 ? along : -1;
    const hb::LoopInfo& loop = stage->loops[along];
    return loop.is_rvar || loop.arg_index < 0 ? -1 : (*this)(k, loop.arg_index, h);
  }

  const hb::KernelDescription& kd_;
  const ReadIndex& reads_;
  const std::vector<std::vector<char>>& reach_;
  std::map<std::tuple<int, int, int>, int> memo_;
};

}  // namespace

// maps_to(p, c): producer loop p runs over the dimension its host reads along loop c.
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
  for (const auto& [fh, dims] : out.host_loops) {
    const auto [f, h] = fh;
    const hb::FuncInfo& producer = kd.funcs[f];
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] < 0) continue;
      const int lc = loop_object(h, 0, kd.funcs[h].stages[0].loops[dims[d]].var);
      for (int s = 0; s < static_cast<int>(producer.stages.size()); ++s) {
        const int lp = loop_object(f, s, producer.args[d]);
        if (lp >= 0 && lc >= 0) out.input.maps_to.push_back({lp, lc});
      }
    }
  }
}

// The hosts each Func may be computed in: its post-dominators (every path to an output
// passes through them; the kernel description lists producers first) with a pure stage that
// has loops and reads it (directly or through the Funcs between) only there. Beyond a single
// consumer, a host must read some dimension of it along one of its loops (HostLoops): then
// what it needs per tile is a slice along that dimension (whole along the dimensions a
// reduction between them sums over, as a convolution's input channels), never the whole Func
// again per tile (through a histogram, a gather, a reduction over everything). Also the
// facts between(f, g, h).
void HalideCpuSpace::add_hosts(const hb::KernelDescription& kd, Layout& out) {
  const int n = static_cast<int>(kd.funcs.size());
  const std::vector<std::vector<char>> reach = kd.read_paths();
  auto between = [&](int f, int g, int h) { return f < g && g < h && reach[f][g] && reach[g][h]; };
  std::vector<std::set<int>> post_dominators(n);
  out.hosts.assign(n, {});
  const ReadIndex reads(kd);
  HostLoops host_loops(kd, reads, reach);
  for (int f = n - 1; f >= 0; --f) {
    const hb::FuncInfo& func = kd.funcs[f];
    std::set<int> readers;
    bool ordered = true;
    for (const hb::Edge* e : reads.from[f]) {
      const int k = reads.of(e->consumer);
      if (k < f) ordered = false;
      if (k >= 0) readers.insert(k);
    }
    // An extern stage, and what it reads, live at the root: Halide calls an extern stage once
    // over the region its consumers need, and hands it whole buffers.
    if (func.is_output || func.is_input_alias || func.is_extern || func.read_by_extern || readers.empty() ||
        !ordered)
      continue;
    bool first = true;
    for (int k : readers) {
      std::set<int> through = post_dominators[k];
      through.insert(k);
      if (first) {
        post_dominators[f] = through;
        first = false;
      } else {
        std::set<int> both;
        for (int g : post_dominators[f])
          if (through.count(g)) both.insert(g);
        post_dominators[f] = both;
      }
    }
    for (int h : post_dominators[f]) {  // ascending: nearest first
      const hb::FuncInfo& host = kd.funcs[h];
      bool pure_reads_only = !host.stages.empty() && !host.stages[0].loops.empty();
      for (int g = f; g < h; ++g) {  // f and the Funcs between, which may be inlined into h
        if (g != f && !between(f, g, h)) continue;
        for (const hb::Edge* e : reads.from[g])
          if (e->consumer == host.name) pure_reads_only &= e->consumer_stage == 0;
      }
      if (!pure_reads_only) continue;
      std::vector<int> dims;
      bool mapped = false;
      for (size_t d = 0; d < func.args.size(); ++d) {
        dims.push_back(host_loops(f, static_cast<int>(d), h));
        mapped |= dims.back() >= 0;
      }
      if (!mapped && !(readers.size() == 1 && *readers.begin() == h)) continue;
      out.hosts[f].push_back(h);
      out.host_loops[{f, h}] = dims;
      for (int g = f + 1; g < h; ++g)
        if (between(f, g, h)) out.input.between.push_back({f, g, h});
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
  add_hosts(kd, out);
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
    // A single consumer Func, reading f only from its pure definition (then its nearest host).
    const std::vector<int>& hosts = out.hosts[f];
    if (func.consumers.size() == 1 && !hosts.empty() && hosts.front() == func_index(func.consumers[0]))
      in.single_consumer.push_back({f});
    // The nearest host reads f itself: f's window may slide over its loops.
    if (!hosts.empty() && std::find(func.consumers.begin(), func.consumers.end(), kd.funcs[hosts.front()].name) !=
                              func.consumers.end()) {
      in.window_host.push_back({f, hosts.front()});
      in.slidable.push_back({f});
    }
    if (!hosts.empty()) in.attachable.push_back({f});
    in.hosts[{f}] = {0};
    for (int h : hosts) in.hosts[{f}].push_back(h + 1);
    in.func_index[{f}] = f + 1;
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
      if (pure.size() > 2) in.three_loops.push_back({so});
      in.loops.push_back({});
      for (int l = 0; l < static_cast<int>(loops.size()); ++l) {
        const int lo = static_cast<int>(out.loops.size());
        out.loops.push_back({so, l});
        in.loops.back().push_back(lo);
        in.loop_names.push_back(in.stage_names.back() + "." + loops[l].var);
        in.owner_index[{lo}] = f + 1;
        if (!pure.empty() && l == pure[0]) in.innermost.push_back({lo});
        if (pure.size() > 1 && l == pure[1]) in.second.push_back({lo});
        if (pure.size() > 2 && l == pure[2]) in.third.push_back({lo});
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
      func_stage_objects_(std::move(layout->func_stages)) {
  stage_loop_objects_.assign(stage_refs_.size(), {});
  for (int lo = 0; lo < static_cast<int>(loop_refs_.size()); ++lo) {
    stage_loop_objects_[loop_refs_[lo].stage_object].push_back(lo);
  }
  // Outputs first, back to the inputs; within a stage, outer loops first.
  for (int f = static_cast<int>(kernel_.funcs.size()) - 1; f >= 0; --f) {
    decision_order_.push_back(location_ref(f).var);
    decision_order_.push_back(host_ref(f).var);
    decision_order_.push_back(sliding_ref(f).var);
    for (int so : func_stage_objects_[f]) {
      decision_order_.push_back(parallel_ref(so).var);
      decision_order_.push_back(vectorize_ref(so).var);
      decision_order_.push_back(unroll_ref(so).var);
      decision_order_.push_back(unroll_third_ref(so).var);
      const auto& loops = stage_loop_objects_[so];
      for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
        decision_order_.push_back(tile_ref(*it).var);
        decision_order_.push_back(subtile_ref(*it).var);
      }
    }
  }
}

bool HalideCpuSpace::is_tile_size(int var) const {
  for (int lo = 0; lo < static_cast<int>(loop_refs_.size()); ++lo)
    if (tile_ref(lo).var == var || subtile_ref(lo).var == var) return true;
  return false;
}

bool HalideCpuSpace::is_placement(int var) const {
  for (int f = 0; f < static_cast<int>(kernel_.funcs.size()); ++f)
    if (location_ref(f).var == var || host_ref(f).var == var || sliding_ref(f).var == var) return true;
  return false;
}

std::string HalideCpuSpace::value_label(int var, int value) const {
  const std::string name = var_name(var);
  if (name.rfind("host(", 0) != 0) return value_name(var, value);
  const int h = host_position(var, value);
  return h < 0 ? "none" : kernel_.funcs[h].name;
}

int HalideCpuSpace::value_labelled(const Candidate& c, int var, const std::string& label) const {
  for (int value : values(c, var))
    if (value_label(var, value) == label) return value;
  return -1;
}

std::vector<std::pair<std::string, std::string>> HalideCpuSpace::decisions(const Candidate& c, bool labels) const {
  std::vector<std::pair<std::string, std::string>> out;
  std::vector<bool> listed(num_vars(), false);
  auto add = [&](int var) {
    if (listed[var] || !is_fixed(c, var)) return;
    listed[var] = true;
    const int value = first_value(c, var);
    out.emplace_back(var_name(var), labels ? value_label(var, value) : value_name(var, value));
  };
  for (int var : decision_order()) add(var);
  for (int var = 0; var < num_vars(); ++var) add(var);
  return out;
}

int HalideCpuSpace::host_position(int host_var, int value) const {
  return static_cast<int>(value_int(host_var, value)) - 1;  // func_index(h) = 1 + h's position
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
    for (int v : values(c, host_ref(f).var)) {
      const int h = host_position(host_ref(f).var, v);
      if (h >= 0) fv.hosts.push_back(kernel_.funcs[h].name);
    }
    for (int so : func_stage_objects_[f]) {
      const hb::StageInfo& stage = info.stages[stage_refs_[so].stage];
      models::halide::StageView sv;
      sv.func = info.name;
      sv.stage = stage.index;
      sv.vector_width = info.vector_width;
      sv.parallel = allowed(*this, c, parallel_ref(so).var);
      sv.vectorize = allowed(*this, c, vectorize_ref(so).var);
      sv.unroll = allowed(*this, c, unroll_ref(so).var);
      sv.unroll_third = allowed(*this, c, unroll_third_ref(so).var);
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

bool HalideCpuSpace::hosts_a_func(const Candidate& c, int func) const {
  for (int g = 0; g < static_cast<int>(kernel_.funcs.size()); ++g) {
    const int where = first_value(c, location_ref(g).var);
    if ((where == gen::Where::TILE || where == gen::Where::SUBTILE) &&
        host_position(host_ref(g).var, first_value(c, host_ref(g).var)) == func)
      return true;
  }
  return false;
}

// A loop of extent E with tile T and subtile S: unsplit in the outer band when T = 1; else
// split by T into an outer-band loop and a T-wide loop, itself split by S into a middle-band
// loop and an S-wide inner-band loop (S = T: all of it inner; S = 1: all of it middle).
// The innermost pure loop's inner part is split again at the vector width when vectorized;
// the next pure loop's (or, unvectorized, the innermost pure loop's) inner part is unrolled,
// and with unroll_third the third pure loop's inner part too.
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
  const int third_loop = unrolled && vectorized && pure.size() > 2 &&
                                 first_value(c, unroll_third_ref(so).var) == gen::Bool::YES
                             ? pure[2]
                             : -1;
  const auto& loops = stage_loop_objects_[so];
  // A stage reading an input buffer directly must not compute beyond the region it is asked
  // for (a split rounded up or shifted past it reads outside the input), nor may an update at
  // non-affine (possibly data-dependent) addresses (Auto rounds an update's splits up, and the
  // extra points store at addresses made of values never computed): their splits guard their
  // tails. Unguarded Auto tails stay inside at the root when every split is exact (an update
  // rounds up) or the stage is pure (tiles shift inwards, and no tile is longer than its
  // loop); guards in vectorized and unrolled loops cost, so those keep Auto.
  // A stage whose loops host another Func's computation guards its tile splits (the loops the
  // hosted Funcs are computed in) unless it is at the root with every split exact: under
  // Halide 14, Funcs computed per tile shifted inwards crashed (bilateral_grid's splat per
  // 16-column tile of blur_x over a region of 10 stored far outside the grid; random:1's
  // s8_downsample per row pair of s9_downsample, tiled 34 wide by 16-lane vectors,
  // segfaulted), and both ran once the tile split was guarded. Exact tiles stay unguarded:
  // a guard makes the hosted Funcs' buffers sized at run time, and a register tile at a
  // run-time stride leaves the registers (conv_relu's conv per guarded tile ran 2.3x slower).
  std::vector<models::halide::EmittedLoop> emitted(stage.loops.size());
  for (int lo : loops) {
    const int l = loop_refs_[lo].loop;
    emitted[l] = {stage.loops[l].is_pure, stage.loops[l].extent, tile_value(c, lo, false), tile_value(c, lo, true)};
  }
  const bool exact = models::halide::splits_exact(emitted, vector_loop, vectorized, info.vector_width);
  const bool at_root = first_value(c, location_ref(ref.func).var) == gen::Where::ROOT;
  const bool guard = (stage.index > 0 && stage.non_affine_addresses) ||
                     (reads_input(c, info.name, stage.index) && !(at_root && (stage.index == 0 || exact)));
  const Halide::TailStrategy tail = guard ? Halide::TailStrategy::GuardWithIf : Halide::TailStrategy::Auto;
  const Halide::TailStrategy tile_tail =
      guard || (hosts_a_func(c, ref.func) && !(at_root && exact)) ? Halide::TailStrategy::GuardWithIf
                                                                   : Halide::TailStrategy::Auto;
  const std::vector<bool> unsplit = models::halide::unsplit_whole_tiles(
      emitted, vector_loop, vectorized, {unrolled ? unroll_loop : -1, third_loop}, info.vector_width, kUnrolledVectors);
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
    std::string within = var;  // the loop over one tile
    if (!unsplit[l]) {
      hb::Split outer = hb::make_split(var, static_cast<int>(tile), tile_tail);
      b.schedule.splits.push_back(outer);
      b.outer.push_back(outer.outer);
      outer_trips.push_back((stage.loops[l].extent + tile - 1) / tile);
      within = outer.inner;
    }
    if (subtile == 1) {
      b.middle.push_back(within);
      continue;
    }
    std::string inner = within;
    if (subtile < tile) {
      hb::Split middle = hb::make_split(within, static_cast<int>(subtile), tail);
      b.schedule.splits.push_back(middle);
      b.middle.push_back(middle.outer);
      inner = middle.inner;
    }
    if (l == vector_loop && vectorized && subtile > info.vector_width) {
      hb::Split lanes = hb::make_split(inner, info.vector_width, tail);
      b.schedule.splits.push_back(lanes);
      b.inner.push_back(lanes.inner);
      b.schedule.annotations[lanes.inner] = hb::LoopAnnotation::Vectorized;
      if (subtile <= int64_t(kUnrolledVectors) * info.vector_width)
        b.schedule.annotations[lanes.outer] = hb::LoopAnnotation::Unrolled;
      inner = lanes.outer;
    } else if (l == vector_loop && vectorized) {
      b.schedule.annotations[inner] = hb::LoopAnnotation::Vectorized;
    }
    b.inner.push_back(inner);
    if ((unrolled && l == unroll_loop) || l == third_loop) {
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
      // Inside the host's pure stage: per tile of its outer band, or of its middle band
      // (the outer band when it has no middle loops).
      const int consumer = host_position(host_ref(f).var, first_value(c, host_ref(f).var));
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
