// Benchmark of the core on the basic-block space, all figures measured side by side in one
// run (medians over repetitions; the machine is shared and noisy):
//   1. the time of one decision propagated to a fixed point, by block size;
//   2. candidates per second for each search engine, on the same block and budget;
//   3. the fraction of the search tree branch-and-bound never visits, compared with
//      exhaustive enumeration, for 8-12 instructions (exhaustive tree sizes are counted
//      exactly by dynamic programming over the dependency-closed prefixes, and checked
//      against the exhaustive engine where it finishes quickly).
// Usage: core_bench [--quick] [--csv DIR]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <random>

#include "basic_block_space.h"
#include "engines.h"
#include "statistics.h"

namespace {

using candor::BasicBlockSpace;
using candor::Candidate;
using candor::median;
namespace models = candor::models;

models::BasicBlock block_of(int size, uint64_t seed, double edges) {
  models::RandomBlockOptions o;
  o.size = size;
  o.seed = seed;
  o.edge_probability = edges;
  return models::random_basic_block(o);
}

// Microseconds per decision (one child of the "next instruction" brancher, propagated to a
// fixed point), along random dives.
double propagation_micros(int size, int dives, uint64_t seed) {
  models::BasicBlock block = block_of(size, seed, std::min(0.3, 4.0 / size));
  BasicBlockSpace space(block);
  models::NextInstructionBrancher brancher(block, space.encoding());
  std::mt19937_64 rng(seed);
  std::vector<double> samples;
  for (int d = 0; d < dives; ++d) {
    Candidate c = *space.root();
    while (!space.is_complete(c)) {
      std::vector<candor::Decision> kids = brancher.branch(space, c);
      const candor::Decision& pick = kids[rng() % kids.size()];
      auto start = std::chrono::steady_clock::now();
      bool ok = space.apply(c, pick);
      samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
      if (!ok) break;
    }
  }
  return median(samples);
}

// Number of nodes below the root of the exhaustive "next instruction" tree, counted exactly
// over downsets S of issued instructions. The brancher treats an instruction that its
// dependencies put before every other remaining one as already issued (no node), and
// propagation completes a candidate once the remaining instructions form a dependency
// chain (no children). alive[S]: nodes whose issued set is S.
double exhaustive_tree_nodes(const models::BasicBlock& block) {
  const int n = block.size();
  std::vector<uint32_t> ancestors(n, 0);
  for (int i = 0; i < n; ++i)
    for (int d : block.deps[i]) ancestors[i] |= (1u << d) | ancestors[d];
  const uint32_t all = (1u << n) - 1;
  auto precedes_all_others = [&](uint32_t s, int r) {
    for (int o = 0; o < n; ++o)
      if (o != r && !(s >> o & 1) && !(ancestors[o] >> r & 1)) return false;
    return true;
  };
  auto canonical = [&](uint32_t s) {
    for (bool grew = true; grew;) {
      grew = false;
      for (int r = 0; r < n; ++r) {
        if (!(s >> r & 1) && (ancestors[r] & s) == ancestors[r] && precedes_all_others(s, r)) {
          s |= 1u << r;
          grew = true;
        }
      }
    }
    return s;
  };
  auto remainder_is_chain = [&](uint32_t s) {
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        if (!(s >> a & 1) && !(s >> b & 1) && !(ancestors[b] >> a & 1) && !(ancestors[a] >> b & 1))
          return false;
    return true;
  };
  std::vector<double> alive(size_t{1} << n, 0);
  alive[canonical(0)] = 1;
  double nodes = 0;
  for (uint32_t s = 0; s <= all; ++s) {
    if (alive[s] == 0 || remainder_is_chain(s)) continue;
    for (int i = 0; i < n; ++i) {
      if (!(s >> i & 1) && (ancestors[i] & s) == ancestors[i]) {
        alive[canonical(s | 1u << i)] += alive[s];
        nodes += alive[s];
      }
    }
  }
  return nodes;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string csv_dir;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv_dir = argv[++i];
    else {
      fmt::print(stderr, "usage: core_bench [--quick] [--csv DIR]\n");
      return 1;
    }
  }

  fmt::print("== 1. one decision propagated to a fixed point (median) ==\n");
  fmt::print("{:>14} {:>10} {:>14}\n", "instructions", "choices", "median us");
  for (int size : {8, 12, 30, 60, 120}) {
    BasicBlockSpace space(block_of(size, 1, 0.1));
    double us = propagation_micros(size, quick ? 2 : 8, 1);
    fmt::print("{:>14} {:>10} {:>14.2f}\n", size, space.num_vars(), us);
  }

  const int search_size = 30;
  const double seconds = quick ? 0.5 : 2.0;
  fmt::print("\n== 2. candidates per second, {}-instruction block, {} s each ==\n", search_size, seconds);
  fmt::print("{:>12} {:>12} {:>12} {:>10} {:>10} {:>10}\n", "search", "created", "cand/s", "makespan",
             "pruned", "optimal");
  {
    models::BasicBlock block = block_of(search_size, 7, 0.12);
    BasicBlockSpace space(block);
    models::BasicBlockObjective objective(block, space.encoding());
    models::NextInstructionBrancher brancher(block, space.encoding());
    Candidate root = *space.root();
    for (const std::string& name : candor::search_names()) {
      candor::Budget budget;
      budget.seconds = seconds;
      candor::SearchResult r = candor::make_search(name)->run(space, root, objective, brancher, budget);
      fmt::print("{:>12} {:>12} {:>12.0f} {:>10} {:>10} {:>10}\n", name, r.stats.created,
                 r.stats.created / std::max(r.stats.seconds, 1e-9),
                 r.best ? fmt::format("{}", r.best_cost) : std::string("-"), r.stats.pruned_by_bound,
                 r.optimal ? "yes" : "no");
    }
  }

  fmt::print("\n== 3. share of the tree branch-and-bound never visits (medians over blocks) ==\n");
  fmt::print("{:>14} {:>16} {:>14} {:>14} {:>12}\n", "instructions", "exhaustive nodes", "dfbb nodes",
             "never visited", "all optimal");
  std::ofstream csv;
  if (!csv_dir.empty()) {
    csv.open(csv_dir + "/bab_pruning.csv");
    csv << "instructions,seed,exhaustive_nodes,dfbb_nodes,never_visited\n";
  }
  const int blocks = quick ? 3 : 9;
  for (int size = 8; size <= 12; ++size) {
    std::vector<double> exhaustive, visited, fraction;
    bool all_optimal = true;
    for (int b = 0; b < blocks; ++b) {
      uint64_t seed = 100 * size + b;
      models::BasicBlock block = block_of(size, seed, 0.2);
      BasicBlockSpace space(block);
      models::BasicBlockObjective objective(block, space.encoding());
      models::NextInstructionBrancher brancher(block, space.encoding());
      Candidate root = *space.root();
      double total = exhaustive_tree_nodes(block);
      if (size <= 9) {  // the exhaustive engine itself agrees with the count
        candor::SearchResult ex = candor::make_search("exhaustive")->run(space, root, objective, brancher, {});
        if (static_cast<double>(ex.stats.created) != total) {
          fmt::print(stderr, "exhaustive engine created {} nodes, count says {}\n", ex.stats.created, total);
          return 1;
        }
      }
      candor::SearchResult bb = candor::make_search("dfbb")->run(space, root, objective, brancher, {});
      all_optimal &= bb.optimal;
      double share = 1.0 - static_cast<double>(bb.stats.created) / total;
      exhaustive.push_back(total);
      visited.push_back(static_cast<double>(bb.stats.created));
      fraction.push_back(share);
      if (csv.is_open()) csv << size << "," << seed << "," << total << "," << bb.stats.created << "," << share << "\n";
    }
    fmt::print("{:>14} {:>16.0f} {:>14.0f} {:>13.4f}% {:>12}\n", size, median(exhaustive), median(visited),
               100 * median(fraction), all_optimal ? "yes" : "no");
  }
  return 0;
}
