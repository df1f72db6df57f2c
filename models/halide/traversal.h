// How a stage's loop nest walks its root buffers through the caches: which lines it fetches
// again because the cache lost them, and whether those fetches come in short runs down a
// column (rows far apart: no prefetching, each line costs a memory latency) or in long
// streams. Set associativity matters: rows a power of two apart share a few sets, so a walk
// down 1024 rows of 4 KiB uses 16 of L2's 1024 sets.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "machine.h"

namespace candor::models::halide {

// One loop of the emitted nest: which of the stage's loops, and its iterations per
// production.
struct NestLoop {
  int loop = 0;
  double extent = 1;
};

// The cache lines of a box of a buffer: `rows` runs of contiguous bytes, `run_lines` lines
// each (exact for runs a power of two bytes long, which tiles align; else expected over
// alignments), `row_stride_bytes` apart.
struct LineFootprint {
  double rows = 1, run_lines = 1, row_stride_bytes = 0;
  double lines() const { return rows * run_lines; }
};

// The footprints of the root buffers a stage touches, by buffer.
using BufferBoxes = std::map<std::string, LineFootprint>;
// The footprints while a stage's loops cover len[i] iterations each; the reference stays
// valid for the whole call that is given it (the models return cached boxes).
using BoxesOf = std::function<const BufferBoxes&(const std::vector<double>& len)>;

// Lines of the box of extents `box` (per dimension, innermost first) of a buffer of extents
// `shape` with `elem_bytes`-byte elements: dimensions the box covers entirely merge with the
// next into longer runs.
LineFootprint line_footprint(const std::vector<double>& box, const std::vector<double>& shape, int elem_bytes,
                             int line_bytes);

// Lines fetched in short runs (at most two lines per run counted) from beyond a cache of
// `geometry` and `capacity_lines`, per production, by a stage whose emitted loop nest is
// `nest` (innermost first) over `loops` loops. `boxes(len)` gives the footprint of every
// root buffer the stage touches while its loops cover len[i] iterations each. Per buffer:
// the innermost loop whose whole walk does not fit (the buffers share the cache) refetches
// what each iteration touches anew; those fetches are short runs when its body's runs are.
// A walk that misses already in the innermost loop is left to the strided-access term.
// By buffer (only those that walk).
std::map<std::string, double> column_walk_lines(const std::vector<NestLoop>& nest, size_t loops,
                         const BoxesOf& boxes,
                         const CacheGeometry& geometry, double capacity_lines);

// Rows of root buffers a stage's walk keeps open at once, each a stream the prefetchers must
// follow: per buffer, the most rows its box spans inside a loop that lengthens its runs (the
// walk comes back to those rows for the next stretch: a strip of tiles walked down before
// across), or, when no loop of the production does, the rows of the production's box (the
// next production continues them or moves on); summed over buffers.
// `nest` and `boxes` as for column_walk_lines. `back` (optional) receives the loop lengths
// inside the loop where the walk comes back with the most rows open (all of the nest's when no
// loop does).
double open_row_streams(const std::vector<NestLoop>& nest, size_t loops,
                        const BoxesOf& boxes,
                        std::vector<double>* back = nullptr);

}  // namespace candor::models::halide
