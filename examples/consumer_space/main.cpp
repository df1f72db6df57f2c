// A decision space of one's own: the cache blocking of a hand-written matrix multiply
// (matmul_blocking.space), priced by a memory traffic model, searched with depth-first
// branch-and-bound and beam search, checked against brute force, then run and timed.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "engines.h"
#include "matmul_blocking.gen.h"

namespace {

constexpr int N = 256, I = 0, J = 1, K = 2, kMaxVolume = 32768;
constexpr double kCacheBytes = 256 << 10, kBytesPerSecond = 20e9, kSecondsPerTile = 50e-9;

struct Config {
  int tile[3], order[3];  // order: the dimensions, outermost tile loop first
};

// Seconds to move the data: each matrix is read once per iteration of the tile loops that
// do not index it and enclose its innermost indexing loop; a tile too large for the cache
// is read again at every tile. Plus a fixed cost per tile.
double model_seconds(const Config& c) {
  const double tiles = double(N) * N * N / (double(c.tile[I]) * c.tile[J] * c.tile[K]);
  const double footprint = 4.0 * (c.tile[I] * c.tile[K] + c.tile[K] * c.tile[J] + c.tile[I] * c.tile[J]);
  double bytes = 0;
  if (footprint > kCacheBytes) {
    bytes = tiles * footprint;
  } else {
    const int uses[3][2] = {{I, K}, {K, J}, {I, J}};  // A, B, C
    for (const auto& m : uses) {
      int innermost = 0;
      for (int p = 0; p < 3; ++p)
        if (c.order[p] == m[0] || c.order[p] == m[1]) innermost = p;
      double reads = 1;
      for (int p = 0; p < innermost; ++p)
        if (c.order[p] != m[0] && c.order[p] != m[1]) reads *= double(N) / c.tile[c.order[p]];
      bytes += 4.0 * N * N * reads;
    }
  }
  return bytes / kBytesPerSecond + tiles * kSecondsPerTile;
}

using Space = candor::spaces::matmul_blocking::GeneratedSpace;

candor::spaces::matmul_blocking::Input input() {
  candor::spaces::matmul_blocking::Input in{3, {"i", "j", "k"}, kMaxVolume};
  for (int d = 0; d < 3; ++d) {
    for (int t = 4; t <= N; t *= 2) in.tiles[{d}].push_back(t);
    in.positions[{d}] = {0, 1, 2};
  }
  return in;
}

// The configuration a complete candidate chose.
Config config_of(const Space& space, const candor::Candidate& c) {
  Config config{};
  for (int d = 0; d < 3; ++d) {
    const int tile = space.tile_ref(d).var, position = space.position_ref(d).var;
    config.tile[d] = int(space.value_int(tile, space.first_value(c, tile)));
    config.order[space.value_int(position, space.first_value(c, position))] = d;
  }
  return config;
}

class TrafficObjective : public candor::Objective {
 public:
  double cost(const candor::Space& s, const candor::Candidate& c) const override {
    return model_seconds(config_of(static_cast<const Space&>(s), c));
  }
  // Every matrix is read at least once; there are at least N^3 / (largest tile volume) tiles.
  double lower_bound(const candor::Space& s, const candor::Candidate& c) const override {
    if (s.is_complete(c)) return cost(s, c);
    const Space& space = static_cast<const Space&>(s);
    double volume = 1;  // the largest tiles still open
    for (int d = 0; d < 3; ++d)
      volume *= double(space.value_int(space.tile_ref(d).var, space.values(c, space.tile_ref(d).var).back()));
    volume = std::min(volume, double(kMaxVolume));
    return 3.0 * 4 * N * N / kBytesPerSecond + double(N) * N * N / volume * kSecondsPerTile;
  }
};

void matmul(const Config& c, const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& out) {
  std::fill(out.begin(), out.end(), 0.0f);
  int o[3];
  const int *t = c.tile, *d = c.order;
  for (o[d[0]] = 0; o[d[0]] < N; o[d[0]] += t[d[0]])
    for (o[d[1]] = 0; o[d[1]] < N; o[d[1]] += t[d[1]])
      for (o[d[2]] = 0; o[d[2]] < N; o[d[2]] += t[d[2]])
        for (int i = o[I]; i < o[I] + t[I]; ++i)
          for (int k = o[K]; k < o[K] + t[K]; ++k)
            for (int j = o[J]; j < o[J] + t[J]; ++j) out[i * N + j] += a[i * N + k] * b[k * N + j];
}

double milliseconds(const Config& c, const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& out) {
  double best = 1e30;
  for (int run = 0; run < 3; ++run) {
    const auto start = std::chrono::steady_clock::now();
    matmul(c, a, b, out);
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;  // the fastest of 3 runs
}

}  // namespace

int main() {
  const Space space(input());
  const TrafficObjective objective;
  const candor::FirstOpenVarBrancher brancher;
  candor::Budget budget;
  budget.seconds = 20;
  candor::SearchResult found[2];
  const char* engines[2] = {"dfbb", "beam:anytime=0"};  // beam: one round, not until the time is spent
  for (int e = 0; e < 2; ++e) {
    found[e] = candor::make_search(engines[e])->run(space, *space.root(), objective, brancher, budget);
    if (!found[e].best) return std::printf("%s found nothing\n", engines[e]), 1;
    std::printf("%s: cost %.6g s, optimal %d, %lld nodes expanded, %lld pruned by the bound\n%s", engines[e],
                found[e].best_cost, int(found[e].optimal), (long long)found[e].stats.expanded,
                (long long)found[e].stats.pruned_by_bound, space.print(*found[e].best).c_str());
  }

  double brute = 1e30;  // every configuration the spec allows, priced directly
  for (int ti = 4; ti <= N; ti *= 2)
    for (int tj = 4; tj <= N; tj *= 2)
      for (int tk = 4; tk <= N; tk *= 2) {
        Config c{{ti, tj, tk}, {I, J, K}};
        do  // each loop order
          if (ti * tj * tk <= kMaxVolume) brute = std::min(brute, model_seconds(c));
        while (std::next_permutation(c.order, c.order + 3));
      }
  std::printf("brute force: cost %.6g s\n", brute);
  if (!found[0].optimal || std::abs(found[0].best_cost - brute) > 1e-12 * brute || found[1].best_cost < brute * (1 - 1e-12))
    return std::printf("FAIL: the searches disagree with brute force\n"), 1;

  std::vector<float> a(N * N), b(N * N), out(N * N), reference(N * N);
  for (int x = 0; x < N * N; ++x) a[x] = float(x % 17) / 16, b[x] = float(x % 13) / 12 - 0.5f;
  const Config best = config_of(space, *found[0].best), untiled{{N, N, N}, {I, K, J}};
  std::printf("tiles i=%d j=%d k=%d, loops %c%c%c: %.2f ms; untiled: %.2f ms\n", best.tile[I], best.tile[J],
              best.tile[K], "ijk"[best.order[0]], "ijk"[best.order[1]], "ijk"[best.order[2]],
              milliseconds(best, a, b, out), milliseconds(untiled, a, b, reference));
  for (int x = 0; x < N * N; ++x)
    if (std::abs(out[x] - reference[x]) > 1e-4f * (1 + std::abs(reference[x])))
      return std::printf("FAIL: element %d is %g, expected %g\n", x, out[x], reference[x]), 1;
  std::printf("the tiled matmul matches the reference\n");
  return 0;
}
