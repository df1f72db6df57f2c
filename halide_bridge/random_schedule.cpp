#include "random_schedule.h"

#include <algorithm>
#include <set>

namespace candor::halide_bridge {

namespace {

// splitmix64: small, fast, and the same on every platform (std distributions are not).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int n) { return n <= 1 ? 0 : int(next() % uint64_t(n)); }
  bool chance(double p) { return double(next() >> 11) * 0x1.0p-53 < p; }
  template <typename T>
  const T& pick(const std::vector<T>& v) { return v[below(int(v.size()))]; }
  template <typename T>
  void shuffle(std::vector<T>& v) {
    for (int i = int(v.size()) - 1; i > 0; --i) std::swap(v[i], v[below(i + 1)]);
  }

 private:
  uint64_t s_;
};

const std::vector<int> kTileFactors = {2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64, 128};

// Does a stage of `func` read an input buffer directly? Such stages must not compute
// outside their region (shifted tails, sliding windows): the input ends where it ends.
bool reads_input(const KernelDescription& kd, const std::string& func) {
  for (const Edge& e : kd.edges)
    if (e.consumer == func && e.producer_is_input) return true;
  return false;
}

int index_of(const std::vector<ScheduledLoop>& loops, const std::string& var) {
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i].var == var) return int(i);
  return -1;
}

// The stages whose loop nests evaluate `f` under the decisions made so far (all of its
// consumers are decided before it).
std::set<std::pair<std::string, int>> use_stages(const KernelDescription& kd, const Schedule& s,
                                                 const std::string& f) {
  std::set<std::pair<std::string, int>> r;
  for (const Edge* e : kd.edges_from(f)) {
    auto c = s.funcs.find(e->consumer);
    if (c != s.funcs.end() && c->second.compute.kind == Location::Kind::Inline) {
      auto inner = use_stages(kd, s, e->consumer);
      r.insert(inner.begin(), inner.end());
    } else {
      r.insert({e->consumer, e->consumer_stage});
    }
  }
  return r;
}

std::vector<ScheduledLoop> loops_of(const KernelDescription& kd, const Schedule& s, const std::string& func,
                                    int stage) {
  const FuncSchedule& fs = s.funcs.at(func);
  StageSchedule ss = stage < int(fs.stages.size()) ? fs.stages[stage] : StageSchedule{};
  return scheduled_loops(kd.func(func).stages.at(stage), ss);
}

// Keeps loops that run a reduction in order in their original relative order.
void restore_serial_rvar_order(std::vector<std::string>& order, const std::vector<ScheduledLoop>& loops) {
  std::vector<std::string> serial;
  for (const ScheduledLoop& l : loops)
    if (l.is_rvar && !l.is_pure) serial.push_back(l.var);
  size_t k = 0;
  for (std::string& v : order)
    if (std::find(serial.begin(), serial.end(), v) != serial.end()) v = serial[k++];
}

class CpuSampler {
 public:
  CpuSampler(const KernelDescription& kd, uint64_t seed, const SamplerOptions& o) : kd_(kd), rng_(seed), o_(o) {}

  Schedule run() {
    for (auto it = kd_.funcs.rbegin(); it != kd_.funcs.rend(); ++it) sample_func(*it);
    return s_;
  }

 private:
  const KernelDescription& kd_;
  Rng rng_;
  SamplerOptions o_;
  Schedule s_;
  std::string fs_name_;  // the Func being placed

  void sample_func(const FuncInfo& f) {
    FuncSchedule& fs = s_.funcs[f.name];
    if (f.is_output) {
      fs.compute = Location::root();
    } else if (f.is_input_alias || (f.can_inline && rng_.chance(o_.p_inline))) {
      fs.compute = Location::inlined();
      return;
    } else {
      fs.compute = Location::root();
      auto uses = use_stages(kd_, s_, f.name);
      fs_name_ = f.name;
      if (uses.size() == 1 && rng_.chance(o_.p_compute_at)) place_inside(fs, *uses.begin());
    }
    const bool root_level = fs.compute.kind == Location::Kind::Root;
    for (const StageInfo& st : f.stages) fs.stages.push_back(sample_stage(f, st, root_level));
  }

  void place_inside(FuncSchedule& fs, const std::pair<std::string, int>& use) {
    const auto loops = loops_of(kd_, s_, use.first, use.second);
    // Not inside vectorized or unrolled loops: those are replicated, not iterated.
    int first = 0;
    for (int i = 0; i < int(loops.size()); ++i)
      if (loops[i].annotation == LoopAnnotation::Vectorized || loops[i].annotation == LoopAnnotation::Unrolled)
        first = i + 1;
    if (first >= int(loops.size())) return;
    const int at = first + rng_.below(int(loops.size()) - first);
    fs.compute = Location::at(use.first, use.second, loops[at].var);
    // Sliding windows over a Func that reads an input can start before the input's min.
    if (!reads_input(kd_, fs_name_) && rng_.chance(o_.p_store_coarser)) {
      // Storage may move out only up to the first parallel loop (else threads would race),
      // and across one loop per dimension, the compute loop included (Halide 14 slides
      // other windows wrongly; see validate.cpp): at most up to the second such loop.
      int limit = at + 1;  // store candidates: [at, limit)
      bool blocked = false;
      std::set<int> crossed = {loops[at].origin};
      for (; limit < int(loops.size()); ++limit) {
        if (loops[limit].annotation == LoopAnnotation::Parallel) {
          blocked = true;
          break;
        }
        if (!crossed.insert(loops[limit].origin).second) {
          ++limit;
          blocked = true;
          break;
        }
      }
      const bool root_ok = !blocked && !inside_parallel(use.first);
      const int outer = at + rng_.below(limit - at + (root_ok ? 1 : 0));
      if (outer < limit)
        fs.store = Location::at(use.first, use.second, loops[outer].var);
      else if (root_ok)
        fs.store = Location::root();
    }
  }

  // Is `func` computed inside a parallel loop of some consumer?
  bool inside_parallel(const std::string& func) const {
    const Location at = s_.funcs.at(func).compute;
    if (at.kind != Location::Kind::At) return false;
    const auto loops = loops_of(kd_, s_, at.func, at.stage);
    for (int i = index_of(loops, at.var); i < int(loops.size()); ++i)
      if (loops[i].annotation == LoopAnnotation::Parallel) return true;
    return inside_parallel(at.func);
  }

  StageSchedule sample_stage(const FuncInfo& f, const StageInfo& st, bool root_level) {
    StageSchedule ss;
    auto loops = [&] { return scheduled_loops(st, ss); };
    // Shifting the tail inwards recomputes points near the end: safe only where the
    // region is known not to be smaller than the factor, and only for pure definitions.
    auto tail = [&](const ScheduledLoop& l, int factor) {
      if (l.is_rvar) return Halide::TailStrategy::GuardWithIf;
      if (st.index == 0 && root_level && factor <= l.extent && !reads_input(kd_, f.name))
        return Halide::TailStrategy::Auto;
      return Halide::TailStrategy::GuardWithIf;
    };
    auto split = [&](const ScheduledLoop& l, int factor) {
      Split sp = make_split(l.var, factor, tail(l, factor));
      ss.splits.push_back(sp);
      return sp;
    };

    // Inside another Func, a Func with updates keeps its pure loops whole: with its pure and
    // update splits both guarded, Halide 14 inferred a negative allocation size
    // (local_laplacian's in_gpyr_1, x split by 2 and by 48).
    const bool whole = st.index == 0 && !root_level && f.stages.size() > 1;
    std::string vec;
    if (!whole && rng_.chance(o_.p_vectorize)) {
      std::vector<ScheduledLoop> pure;
      for (const ScheduledLoop& l : loops())
        if (l.is_pure && l.extent >= 2) pure.push_back(l);
      if (!pure.empty()) {
        // The storage-innermost dimension, where vector loads are dense. (Vectorizing an
        // outer dimension with a producer computed between its loops segfaults in Halide
        // 14: harris, sum_yy.vectorize(y_i) with grad_yy computed at x inside y_o.)
        ScheduledLoop l = rng_.pick(pure);
        for (const ScheduledLoop& p : pure)
          if (p.arg_index == 0) l = p;
        int w = f.vector_width * (rng_.chance(0.3) ? 2 : 1);
        while (w > 2 && w > l.extent) w /= 2;
        vec = split(l, w).inner;
      }
    }

    const auto before_tiling = loops();
    for (const ScheduledLoop& l : before_tiling) {
      if (l.var == vec || whole) continue;
      const double p = l.is_rvar && !l.is_pure ? o_.p_split_rvar : o_.p_split;
      if (l.extent < 4 || !rng_.chance(p)) continue;
      std::vector<int> factors;
      for (int k : kTileFactors)
        if (k < l.extent) factors.push_back(k);
      const int factor = rng_.pick(factors);
      Split sp = split(l, factor);
      if (factor >= 4 && rng_.chance(p / 2)) {
        std::vector<int> inner;
        for (int k : kTileFactors)
          if (k < factor) inner.push_back(k);
        ScheduledLoop in = loops()[index_of(loops(), sp.inner)];
        split(in, rng_.pick(inner));
      }
    }

    if (rng_.chance(o_.p_unroll)) {
      std::vector<std::string> small;
      for (const ScheduledLoop& l : loops())
        if (l.constant_extent && l.extent <= o_.max_unroll && l.var != vec) small.push_back(l.var);
      if (!small.empty()) ss.annotations[rng_.pick(small)] = LoopAnnotation::Unrolled;
    }

    if (rng_.chance(o_.p_reorder)) {
      const auto current = loops();
      std::vector<std::string> order;
      for (const ScheduledLoop& l : current)
        if (l.var != vec) order.push_back(l.var);
      rng_.shuffle(order);
      restore_serial_rvar_order(order, current);
      if (!vec.empty()) order.insert(order.begin(), vec);
      ss.order = order;
    }

    if (rng_.chance(root_level ? o_.p_parallel : 0.1)) {
      const auto current = loops();
      for (int i = int(current.size()) - 1; i >= 0; --i) {
        const ScheduledLoop& l = current[i];
        if (!l.is_pure || l.var == vec || ss.annotations.count(l.var)) continue;
        if (l.extent > 1) ss.annotations[l.var] = LoopAnnotation::Parallel;
        break;
      }
    }
    if (!vec.empty()) ss.annotations[vec] = LoopAnnotation::Vectorized;
    return ss;
  }
};

class GpuSampler {
 public:
  GpuSampler(const KernelDescription& kd, uint64_t seed, const GpuLimits& limits, const SamplerOptions& o)
      : kd_(kd), rng_(seed), limits_(limits), o_(o) {}

  Schedule run() {
    for (auto it = kd_.funcs.rbegin(); it != kd_.funcs.rend(); ++it) sample_func(*it);
    return s_;
  }

 private:
  const KernelDescription& kd_;
  Rng rng_;
  GpuLimits limits_;
  SamplerOptions o_;
  Schedule s_;
  std::set<std::string> kernels_;      // root-level Funcs that launch kernels
  std::set<std::string> block_level_;  // Funcs computed per block

  void sample_func(const FuncInfo& f) {
    FuncSchedule& fs = s_.funcs[f.name];
    if (f.is_input_alias || (!f.is_output && f.can_inline && rng_.chance(o_.p_inline))) {
      fs.compute = Location::inlined();
      return;
    }
    fs.compute = Location::root();
    auto uses = use_stages(kd_, s_, f.name);
    if (!f.is_output && uses.size() == 1 && rng_.chance(o_.p_compute_at)) {
      const auto& [cf, cs] = *uses.begin();
      const auto loops = loops_of(kd_, s_, cf, cs);
      int block = -1, thread = -1;
      for (int i = int(loops.size()) - 1; i >= 0; --i) {
        if (loops[i].annotation == LoopAnnotation::GpuBlock) block = i;  // ends at the innermost
        if (loops[i].annotation == LoopAnnotation::GpuThread) thread = i;
      }
      if (block >= 0 && kernels_.count(cf) && rng_.chance(0.6)) {
        fs.compute = Location::at(cf, cs, loops[block].var);
        if (rng_.chance(0.5)) fs.memory = Halide::MemoryType::GPUShared;
        for (const StageInfo& st : f.stages) fs.stages.push_back(threads_only(st));
        const int64_t bytes = estimated_allocation_bytes(s_, kd_, f.name);
        if (bytes >= 0 && bytes <= limits_.max_shared_bytes / 2) {
          block_level_.insert(f.name);
          return;
        }
        fs = FuncSchedule{};  // too big for shared memory: a kernel of its own instead
      } else if (thread >= 0) {
        fs.compute = Location::at(cf, cs, loops[thread].var);  // per thread, in registers
        return;
      }
    }
    for (const StageInfo& st : f.stages) fs.stages.push_back(kernel(st));
    kernels_.insert(f.name);
  }

  // Splits up to three pure loops into (block, thread) pairs within the thread budget.
  // Returns the (outer, inner) names.
  std::vector<std::pair<std::string, std::string>> thread_splits(const StageInfo& st, StageSchedule& ss) {
    std::vector<std::pair<std::string, std::string>> r;
    int64_t budget = limits_.max_threads_per_block;
    const int dims = 1 + rng_.below(std::min(3, limits_.max_thread_dims));
    for (const LoopInfo& l : st.loops) {
      if (!l.is_pure || int(r.size()) >= dims) continue;
      std::vector<int> ts;
      for (int t = 2; t <= 256 && t <= budget && t / 2 < l.extent; t *= 2) ts.push_back(t);
      if (ts.empty()) continue;
      const int t = rng_.pick(ts);
      budget /= t;
      Split sp = make_split(l.var, t, Halide::TailStrategy::GuardWithIf);
      ss.splits.push_back(sp);
      r.push_back({sp.outer, sp.inner});
    }
    return r;
  }

  // A stage launched as its own kernel: thread loops innermost (with reductions inside
  // them), block loops around, other loops outermost.
  StageSchedule kernel(const StageInfo& st) {
    StageSchedule ss;
    const auto pairs = thread_splits(st, ss);
    if (pairs.empty()) return ss;  // nothing to parallelize: runs on the host
    std::vector<std::string> inner, threads, blocks, outer;
    for (const auto& [o, i] : pairs) {
      threads.push_back(i);
      blocks.push_back(o);
      ss.annotations[i] = LoopAnnotation::GpuThread;
      ss.annotations[o] = LoopAnnotation::GpuBlock;
    }
    for (const ScheduledLoop& l : scheduled_loops(st, ss)) {
      if (ss.annotations.count(l.var)) continue;
      (l.is_rvar || rng_.chance(0.5) ? inner : outer).push_back(l.var);
    }
    ss.order = inner;
    ss.order.insert(ss.order.end(), threads.begin(), threads.end());
    ss.order.insert(ss.order.end(), blocks.begin(), blocks.end());
    ss.order.insert(ss.order.end(), outer.begin(), outer.end());
    return ss;
  }

  // A stage computed per block: its threads cooperate; the rest are serial loops.
  StageSchedule threads_only(const StageInfo& st) {
    StageSchedule ss;
    const auto pairs = thread_splits(st, ss);
    std::vector<std::string> inner, threads, rest;
    for (const auto& [o, i] : pairs) {
      threads.push_back(i);
      ss.annotations[i] = LoopAnnotation::GpuThread;
    }
    for (const ScheduledLoop& l : scheduled_loops(st, ss)) {
      if (ss.annotations.count(l.var)) continue;
      (l.is_rvar ? inner : rest).push_back(l.var);
    }
    ss.order = inner;
    ss.order.insert(ss.order.end(), threads.begin(), threads.end());
    ss.order.insert(ss.order.end(), rest.begin(), rest.end());
    return ss;
  }
};

template <typename Sample>
Schedule first_valid(const KernelDescription& kd, uint64_t seed, const Halide::Target& target,
                     const GpuLimits& limits, int attempts, Sample&& sample) {
  std::string last;
  for (int a = 0; a < std::max(1, attempts); ++a) {
    Schedule s = sample(seed + uint64_t(a) * 0x632BE59BD9B4E019ull);
    auto problems = schedule_problems(s, kd, target, limits);
    if (problems.empty()) return s;
    last = problems.front();
  }
  throw BridgeError("no valid random schedule found for seed " + std::to_string(seed) + " (last problem: " + last +
                    ")");
}

}  // namespace

Schedule random_cpu_schedule(const KernelDescription& kd, uint64_t seed, const SamplerOptions& options) {
  return first_valid(kd, seed, Halide::Target(kd.target), GpuLimits{}, options.attempts,
                     [&](uint64_t s) { return CpuSampler(kd, s, options).run(); });
}

Schedule random_gpu_schedule(const KernelDescription& kd, uint64_t seed, const Halide::Target& target,
                             const GpuLimits& limits, const SamplerOptions& options) {
  return first_valid(kd, seed, target, limits, options.attempts,
                     [&](uint64_t s) { return GpuSampler(kd, s, limits, options).run(); });
}

}  // namespace candor::halide_bridge
