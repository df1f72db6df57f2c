// Tests of the traversal term (traversal.h): line footprints, set-aliasing capacity, and
// column walks told from row walks; and the analytic model charging harris's column walk.
#include <gtest/gtest.h>

#include <list>
#include <memory>

#include "analytic_model.h"
#include "apps.h"
#include "compile.h"
#include "traversal.h"
#include "views.h"

namespace mh = candor::models::halide;
namespace hb = candor::halide_bridge;

namespace {

// An 8-way L2 of 1024 sets of 64-byte lines (512 KiB), as on the machine this was built on.
mh::CacheGeometry l2() {
  mh::CacheGeometry g;
  g.ways = 8;
  g.sets = 1024;
  g.line_bytes = 64;
  return g;
}

TEST(Traversal, LineFootprintMergesWholeRows) {
  const std::vector<double> image = {1024, 1024};
  const mh::LineFootprint tile = mh::line_footprint({8, 8}, image, 4, 64);
  EXPECT_DOUBLE_EQ(tile.rows, 8);
  EXPECT_DOUBLE_EQ(tile.run_lines, 1);  // 32 bytes at a multiple of 32: inside one line
  EXPECT_DOUBLE_EQ(tile.row_stride_bytes, 4096);
  // A stencil's box (the tile and its halo) starts anywhere.
  EXPECT_DOUBLE_EQ(mh::line_footprint({10, 10}, image, 4, 64).run_lines, (40.0 - 4) / 64 + 1);
  EXPECT_DOUBLE_EQ(mh::line_footprint({64, 2}, image, 4, 64).run_lines, 4);
  // Rows that are not a whole number of lines apart shift every run's alignment.
  EXPECT_DOUBLE_EQ(mh::line_footprint({8, 8}, {1000, 1000}, 4, 64).run_lines, (32.0 - 4) / 64 + 1);
  const mh::LineFootprint strip = mh::line_footprint({1024, 8}, image, 4, 64);
  EXPECT_DOUBLE_EQ(strip.rows, 1);
  EXPECT_NEAR(strip.run_lines, 512, 1);
  const mh::LineFootprint planes = mh::line_footprint({16, 4, 3}, {1024, 1024, 3}, 1, 64);
  EXPECT_DOUBLE_EQ(planes.rows, 12);
  EXPECT_DOUBLE_EQ(planes.row_stride_bytes, 1024);
}

TEST(Traversal, RowsAPowerOfTwoApartShareAFewSets) {
  const mh::CacheGeometry g = l2();
  // 4 KiB apart: every 16th row comes back to the same set; two lines per row.
  EXPECT_DOUBLE_EQ(g.capacity_lines(1024, 1.5, 4096), 16 * 2 * 8);
  // An odd number of lines apart: the rows spread over every set.
  EXPECT_DOUBLE_EQ(g.capacity_lines(1024, 1.5, 4096 + 64), 1024 * 8);
  EXPECT_DOUBLE_EQ(g.capacity_lines(1, 100, 0), 1024 * 8);
  mh::CacheGeometry unknown;
  EXPECT_TRUE(std::isinf(unknown.capacity_lines(1024, 1, 4096)));
}

// A BoxesOf that keeps every box it computed for as long as the walk holds it.
mh::BoxesOf kept(std::function<mh::BufferBoxes(const std::vector<double>&)> boxes) {
  auto store = std::make_shared<std::list<mh::BufferBoxes>>();
  return [boxes, store](const std::vector<double>& len) -> const mh::BufferBoxes& {
    return store->emplace_back(boxes(len));
  };
}

// One 1024x1024 float buffer read and written by 8x8 blocks: down whole columns of blocks
// (the y loop's middle band inside the x loop's outer band) or along rows of blocks.
double walked(bool down_columns) {
  const std::vector<double> image = {1024, 1024};
  std::vector<mh::NestLoop> nest = {{0, 8}, {1, 8}};
  if (down_columns)
    nest.insert(nest.end(), {{1, 128}, {0, 128}});
  else
    nest.insert(nest.end(), {{0, 128}, {1, 128}});
  auto boxes = [&](const std::vector<double>& len) {
    return std::map<std::string, mh::LineFootprint>{{"in", mh::line_footprint({len[0] + 2, len[1] + 2}, image, 4, 64)},
                                                    {"out", mh::line_footprint(len, image, 4, 64)}};
  };
  double lines = 0;
  for (const auto& [buffer, n] : mh::column_walk_lines(nest, 2, kept(boxes), l2(), 8192)) lines += n;
  return lines;
}

TEST(Traversal, ColumnWalksRefetchInShortRunsRowWalksDoNot) {
  const double columns = walked(true), rows = walked(false);
  // Each 8-row step of the column walk fetches about 8 new short rows per buffer.
  EXPECT_GT(columns, 128 * 128 * 8 * 2);
  EXPECT_LT(rows, columns / 100);
}

hb::KernelDescription describe(const std::string& app_name) {
  const hb::App* app = candor::apps::find_app(app_name);
  if (!app) throw std::runtime_error("no app " + app_name);
  return hb::describe_app(app->build(), hb::host_target());
}

// Two cores with the cache sizes and read bandwidths given (L1 32 KiB, the L2 above), every
// arithmetic rate 1e10 and gathers at 2e9 lanes/s.
mh::MachineDescription two_cores(int64_t l2_bytes, int64_t l3_bytes, std::vector<mh::Bandwidth> bandwidth) {
  mh::MachineDescription m;
  m.cores = 2;
  m.l1d_bytes = 32 << 10;
  m.l2_bytes = l2_bytes;
  m.l3_bytes = l3_bytes;
  m.l2_geometry = l2();
  m.scalar = m.unvectorized = m.vector = {1e10, 1e10, 1e10, 1e10};
  m.bandwidth = std::move(bandwidth);
  m.gather_lanes_per_s = 2e9;
  return m;
}

// A 1536x1536 16-bit buffer written in strips 64 wide: a tile `rows` deep walked down before
// the next one across keeps that many rows open; whole rows keep one stream; a production
// (a tile of a host) that never comes back along its rows keeps all of its rows open.
TEST(Traversal, OpenRowsAreThoseAWalkComesBackTo) {
  const std::vector<double> image = {1536, 1536};
  auto boxes = [&](const std::vector<double>& len) {
    return std::map<std::string, mh::LineFootprint>{{"out", mh::line_footprint(len, image, 2, 64)}};
  };
  for (double rows : {16.0, 256.0})
    EXPECT_DOUBLE_EQ(mh::open_row_streams({{0, 64}, {1, rows}, {0, 24}, {1, 1536 / rows}}, 2, kept(boxes)), rows);
  EXPECT_DOUBLE_EQ(mh::open_row_streams({{0, 1536}, {1, 256}, {1, 6}}, 2, kept(boxes)), 1);
  EXPECT_DOUBLE_EQ(mh::open_row_streams({{0, 64}, {1, 130}}, 2, kept(boxes)), 130);
  // Two buffers walked alike: their streams add up.
  auto two = [&](const std::vector<double>& len) {
    return std::map<std::string, mh::LineFootprint>{{"in", mh::line_footprint({len[0] + 2, len[1] + 2}, image, 2, 64)},
                                                    {"out", mh::line_footprint(len, image, 2, 64)}};
  };
  EXPECT_DOUBLE_EQ(mh::open_row_streams({{0, 64}, {1, 16}, {0, 24}, {1, 96}}, 2, kept(two)), 16 + 18);
}

// harris with every stage at the root, vectorized and parallel, tiled 8x8 in its inner band
// with the y loop's middle band 1024 rows (a walk down each column: measured 80 ms here) or
// 8 rows (along the rows: 10.6 ms).
TEST(Traversal, ModelChargesHarrisColumnWalk) {
  const hb::KernelDescription kd = describe("harris");
  mh::MachineDescription m = two_cores(512 << 10, 32 << 20,
                                       {{"L1", 1 << 16, 3e11, 1.5e11}, {"L2", 1 << 20, 1.8e11, 9e10},
                                        {"L3", 1 << 24, 9e10, 5e10}, {"DRAM", 1 << 27, 3.5e10, 2e10}});
  m.column_walk = {2e8, 1e8};
  m.column_walk_near = m.column_walk;
  m.column_walk_bytes = 16 << 20;
  m.column_walk_near_bytes = 2 << 20;
  auto view = [&](int64_t y_tile) {
    mh::ScheduleView v = mh::testing::root_view(kd, {false, true, true});
    for (mh::FuncView& f : v.funcs)
      for (mh::StageView& s : f.stages) {
        if (!s.vectorize.allows(1) || s.loops.size() != 2) continue;
        s.unroll = mh::testing::bits_of({1});
        s.loops[0].tile.values = s.loops[0].subtile.values = {8};
        s.loops[1].tile.values = {y_tile};
        s.loops[1].subtile.values = {8};
      }
    return v;
  };
  const mh::AnalyticModel model(m);
  const mh::Prediction columns = model.explain(kd, view(1024)), rows = model.explain(kd, view(8));
  double walked_columns = 0, walked_rows = 0;
  for (const mh::StageCost& c : columns.stages) walked_columns += c.column_walk_lines;
  for (const mh::StageCost& c : rows.stages) walked_rows += c.column_walk_lines;
  EXPECT_GT(walked_columns, 1e6);
  EXPECT_LT(walked_rows, walked_columns / 100);
  EXPECT_GT(columns.seconds, 3 * rows.seconds);
  // The load term's parts (what `candor search --explain` prints) add up to it, and the
  // column walks are where the column-major schedule's time goes.
  double walk_s = 0, other_s = 0;
  for (const mh::Prediction* p : {&columns, &rows})
    for (const mh::StageCost& c : p->stages) {
      const auto& l = c.load_parts;
      EXPECT_NEAR(l.levels_s + l.l1_s + l.strided_s + l.gathers_s + l.column_walk_s, c.load_s, 1e-12);
      if (p == &columns) {
        walk_s += l.column_walk_s;
        other_s += l.levels_s + l.l1_s + l.strided_s + l.gathers_s;
      }
    }
  EXPECT_GT(walk_s, other_s);
}

// box_blur at the root, blur_y in strips 64 wide walked 16 or 256 rows deep before the next
// strip: on a Xeon whose buffers fit its L3, 1.35 and 1.85 ms (the analytic model had priced
// them 1.05 and 0.97). With an L3 whose copies slow down past 64 rows at once, the deep walk's
// lines come one by one, and that wait is not overlapped with its arithmetic.
TEST(Traversal, ModelChargesRowsOpenPastWhatL3sPrefetchersFollow) {
  const hb::KernelDescription kd = describe("box_blur");
  const mh::MachineDescription m = two_cores(2 << 20, 64 << 20,
                                             {{"L1", 1 << 16, 4e11, 2e11}, {"L2", 4 << 20, 2.8e11, 1.4e11},
                                              {"L3", 64 << 20, 5.5e10, 2.8e10}, {"DRAM", 1 << 30, 3e10, 1.3e10}});
  auto price = [&](double rows, bool l3_walks) {
    mh::MachineDescription machine = m;
    if (l3_walks) machine.row_streams_l3 = {{1, 4e10}, {64, 4e10}, {128, 1.5e10}};
    mh::ScheduleView v = mh::testing::root_view(kd, {false, true, true});
    for (size_t i = 0; i < kd.funcs.size(); ++i) {
      if (kd.funcs[i].name != "blur_y") continue;
      mh::StageView& s = v.funcs[i].stages[0];
      s.loops[0].tile.values = s.loops[0].subtile.values = {64};
      s.loops[1].tile.values = s.loops[1].subtile.values = {int64_t(rows)};
    }
    return mh::AnalyticModel(machine).explain(kd, v);
  };
  auto stalled = [](const mh::Prediction& p) {
    double s = 0;
    for (const mh::StageCost& c : p.stages) s += c.stall_s;
    return s;
  };
  const mh::Prediction shallow = price(16, true), deep = price(256, true);
  EXPECT_EQ(stalled(shallow), 0);
  EXPECT_GT(stalled(deep), 0);
  EXPECT_EQ(stalled(price(256, false)), 0);  // machine files without L3's walks
  EXPECT_GT(deep.seconds / shallow.seconds, 1.05 * price(256, false).seconds / price(16, false).seconds);
  // The wait adds to the stage's time beyond its overlapped work.
  for (const mh::StageCost& c : deep.stages)
    if (c.stall_s > 0) {
      const double memory_s = c.load_s + c.store_s - c.stall_s;
      EXPECT_NEAR(c.total_s - c.parallel_s - c.allocation_s - c.loop_s,
                  std::max(c.compute_s, memory_s) + 0.3 * std::min(c.compute_s, memory_s) + c.stall_s, 1e-12);
    }
}

}  // namespace
