// What a (partial) candidate of the Halide CPU space says about a schedule, in the terms the
// cost model and the lower bound reason with. Undecided choices keep every value still
// allowed, so models can be optimistic about them (see halide_cpu.space for the choices).
//
// Built by HalideCpuSpace::view(candidate); the models never read candidate words directly.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace candor::models::halide {

// Where a Func is computed: inlined into its consumers, at the root, or inside the loop nest
// of its host (a consumer, or a Func every path to the outputs passes through), once per
// tile of the host's outer band (Tile) or once per tile of its middle band (Subtile).
enum class Where { Inline = 0, Root = 1, Tile = 2, Subtile = 3 };

// A set of allowed values of one choice: bit i set when value i is still allowed.
struct Allowed {
  uint32_t bits = 0;
  bool allows(int v) const { return (bits >> v) & 1u; }
  bool fixed() const { return bits && !(bits & (bits - 1)); }
  int value() const { return __builtin_ctz(bits); }  // the smallest allowed value
};

// Integer choices: the allowed values, ascending.
struct AllowedInts {
  std::vector<int64_t> values;
  bool fixed() const { return values.size() == 1; }
  int64_t min() const { return values.front(); }
  int64_t max() const { return values.back(); }
};

struct LoopView {
  std::string var;      // the loop's canonical name (kernel description)
  int64_t extent = 1;   // over the stage's whole region
  bool pure = true;
  // Each loop is split twice: outer band (extent / tile), middle band (tile / subtile) and
  // inner band (subtile). A value equal to 1 means "not split at that level".
  AllowedInts tile;
  AllowedInts subtile;
};

struct StageView {
  std::string func;
  int stage = 0;
  std::vector<LoopView> loops;  // innermost first (the kernel description's order)
  Allowed parallel;    // Bool: the outer band's outermost loop with more than one iteration runs in parallel
  Allowed vectorize;   // Bool: the innermost pure loop's inner band is vectorized
  Allowed unroll;      // Bool: the inner band's second loop is unrolled
  Allowed unroll_third;  // Bool: with it, the inner band's third loop (a two-loop register tile)
  int vector_width = 1;
};

struct FuncView {
  std::string name;
  Allowed where;    // bits over Where (the space's `location` choice)
  Allowed sliding;  // Bool: storage one level coarser than compute (sliding window)
  // The Funcs it may still be computed inside at Tile or Subtile (its hosts: consumers or
  // Funcs all its consumers feed), nearest first.
  std::vector<std::string> hosts;
  std::vector<StageView> stages;
};

struct ScheduleView {
  std::vector<FuncView> funcs;  // the kernel description's order (producers first)
};

// A stage's loop as the space emits it (bands() in spaces/halide_cpu_space.cpp): its tile
// and subtile (1: not split at that level).
struct EmittedLoop {
  bool pure = true;
  int64_t extent = 1;
  int64_t tile = 1;
  int64_t subtile = 1;
};

// Whether every split of a stage divides evenly: each tile its loop, each subtile its tile,
// and a vectorized subtile longer than a vector the vector's lanes. The space guards the
// tiles of a stage that hosts other Funcs (TailStrategy::GuardWithIf) unless it is at the
// root with exact splits, and the buffers of the Funcs computed in guarded tiles are sized
// at run time: the cost model prices their heap allocations.
inline bool splits_exact(const std::vector<EmittedLoop>& loops, int vector_loop, bool vectorize, int vector_width) {
  for (int i = 0; i < static_cast<int>(loops.size()); ++i) {
    const EmittedLoop& l = loops[i];
    if (l.tile <= 1) continue;
    const int64_t lanes = i == vector_loop && vectorize && l.subtile > vector_width ? vector_width : 1;
    if (l.extent % l.tile != 0 || l.tile % std::max<int64_t>(1, l.subtile) != 0 || l.subtile % lanes != 0)
      return false;
  }
  return true;
}

// Which loops are tiled whole without the outer loop of their split. A tile as long as its
// loop would split off an outer loop of one iteration, which Halide's loop partitioning
// treats as all edge: a boundary condition stays clamped, so gathered, in every vector inside
// (unsharp_mask in full-width row strips ran 2.6x slower than with the rows' loop unsplit).
// The split stays where a loop inside it is vectorized or unrolled whole, which needs the
// constant extent the split gives, and when the stage would be left with no outer loop to
// compute producers at and to run in parallel. The space's emitter and the cost model both
// ask this, so that they agree on the loops.
// `unrolled`: the loops whose inner band is unrolled (-1: none).
inline std::vector<bool> unsplit_whole_tiles(const std::vector<EmittedLoop>& loops, int vector_loop, bool vectorize,
                                             const std::array<int, 2>& unrolled, int vector_width,
                                             int unrolled_vectors) {
  const int n = static_cast<int>(loops.size());
  std::vector<bool> unsplit(n, false);
  bool outer_kept = false;
  for (int i = 0; i < n; ++i) {
    const EmittedLoop& l = loops[i];
    if (!l.pure) continue;
    const bool whole = l.tile > 1 && l.tile >= l.extent;
    const bool inner_band_is_the_tile = l.subtile > 1 && l.subtile >= l.tile;
    const bool needs_constant_extent =
        inner_band_is_the_tile && (i == unrolled[0] || i == unrolled[1] ||
                                   (vectorize && i == vector_loop && l.subtile <= int64_t(unrolled_vectors) * vector_width));
    unsplit[i] = whole && !needs_constant_extent;
    if (!unsplit[i]) outer_kept = true;
  }
  if (!outer_kept) unsplit.assign(n, false);
  return unsplit;
}

}  // namespace candor::models::halide
