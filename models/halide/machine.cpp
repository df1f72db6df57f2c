#include "machine.h"

#include "cache_info.h"
#include "support/install_dirs.h"
#include "support/json_shape.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace candor::models::halide {

namespace {

int type_bits(const std::string& type, bool& is_float) {
  is_float = type.rfind("float", 0) == 0;
  if (type == "bool") return 8;
  size_t i = 0;
  while (i < type.size() && !std::isdigit((unsigned char)type[i])) ++i;
  size_t j = i;
  while (j < type.size() && std::isdigit((unsigned char)type[j])) ++j;
  if (i == j) return 32;
  return std::atoi(type.substr(i, j - i).c_str());
}

}  // namespace

double Throughput::for_type(const std::string& type) const {
  bool is_float = false;
  const int bits = type_bits(type, is_float);
  if (is_float) return float32;
  if (bits <= 8) return int8;
  if (bits <= 16) return int16;
  return int32;  // 64-bit integers: optimistic
}

double Throughput::max() const { return std::max({float32, int32, int16, int8}); }

double Bandwidth::with_cores(double cores, int total_cores) const {
  if (total_cores <= 1 || cores >= total_cores) return all_cores;
  if (cores <= 1) return one_core;
  const double t = (cores - 1) / double(total_cores - 1);
  return one_core + t * (all_cores - one_core);
}

double LineRate::with_cores(double cores, int total_cores) const {
  return Bandwidth{"", 0, all_cores, one_core}.with_cores(cores, total_cores);
}

double column_walk_rate(const MachineDescription& m, double bytes, double cores) {
  const double near = m.column_walk_near.with_cores(cores, m.cores), far = m.column_walk.with_cores(cores, m.cores);
  const double lo = double(m.column_walk_near_bytes), hi = double(m.column_walk_bytes);
  if (near <= 0 || lo <= 0 || hi <= lo || bytes >= hi) return far;
  if (bytes <= lo) return near;
  const double t = std::log(bytes / lo) / std::log(hi / lo);
  return std::exp(std::log(near) + t * (std::log(far) - std::log(near)));
}

double CacheGeometry::capacity_lines(double rows, double run_lines, double row_stride_bytes) const {
  if (ways <= 0 || sets <= 0) return std::numeric_limits<double>::infinity();
  const double total = double(ways) * sets;
  const auto stride = int64_t(row_stride_bytes);
  if (rows <= 1 || line_bytes <= 0 || stride % line_bytes != 0) return total;
  // Row starts step through the sets by stride/line modulo the set count: they come back to
  // the first set after sets / gcd(sets, step) rows.
  const int64_t step = (stride / line_bytes) % sets;
  const int64_t period = sets / std::gcd<int64_t>(sets, step == 0 ? sets : step);
  const double covered = std::min<double>(sets, std::min<double>(rows, period) * std::max(1.0, std::ceil(run_lines)));
  return covered * ways;
}

// Physical pages land in the cache's page colours (sets x line / page of them) at random, so
// a colour holds Poisson(λ) of the working set's pages, λ = pages / colours. A colour given
// more pages than it has ways thrashes (LRU over a repeated pass misses every line), so the
// missed share is the share of pages in colours of ways + 1 or more: E[N 1{N > w}] / λ =
// P(N >= w). unsharp_mask's strips of 32 rows (1.8 MB a core of a 16-way 2 MiB L2: 31% by
// this) ran 1.07-1.11x as long as strips of 16 (0.9 MB: 0.2%), priced 0.1% apart without it.
double CacheGeometry::conflict_miss_share(double bytes, double page_bytes) const {
  if (ways <= 0 || sets <= 0 || line_bytes <= 0 || page_bytes <= 0 || bytes <= 0) return 0;
  const double colours = double(sets) * line_bytes / page_bytes;
  if (colours <= 1) return 0;
  const double lambda = std::ceil(bytes / page_bytes) / colours;
  // P(N >= ways) = 1 - sum_{k < ways} e^-λ λ^k / k!
  double term = std::exp(-lambda), below = 0;
  for (int k = 0; k < ways; ++k) {
    below += term;
    term *= lambda / (k + 1);
  }
  return std::clamp(1 - below, 0.0, 1.0);
}

int MachineDescription::lanes_for_bits(int bits) const {
  if (bits <= 8) return lanes_u8;
  if (bits <= 16) return lanes_u16;
  if (bits <= 32) return lanes_f32;
  return std::max(1, lanes_f32 / 2);
}

int64_t MachineDescription::capacity(const std::string& level) const {
  // The models ask this for every read they price: the names are told apart by their digit.
  if (level.size() != 2 || level[0] != 'L') return INT64_MAX;
  switch (level[1]) {
    case '1': return l1d_bytes * cores;
    case '2': return l2_bytes * cores;
    case '3': return l3_bytes;
    default: return INT64_MAX;
  }
}

namespace {

// A calibrated table (ascending keys): its value at `x`, interpolated linearly between
// entries, the nearest end's beyond them. `key` and `value` read an entry.
template <class Entry, class Key, class Value>
double interpolate(const std::vector<Entry>& table, double x, Key key, Value value) {
  if (x <= key(table.front())) return value(table.front());
  for (size_t i = 1; i < table.size(); ++i) {
    const Entry &lo = table[i - 1], &hi = table[i];
    if (x <= key(hi)) return value(lo) + (value(hi) - value(lo)) * (x - key(lo)) / (key(hi) - key(lo));
  }
  return value(table.back());
}

// Problems of a calibrated table: missing, a value not positive, keys not ascending.
template <class Entry, class Key, class Value>
void check_table(const std::vector<Entry>& table, Key key, Value value, const std::string& what,
                 std::vector<std::string>& problems) {
  if (table.empty()) problems.push_back("no " + what);
  for (size_t i = 0; i < table.size(); ++i) {
    if (!(value(table[i]) > 0) || !std::isfinite(value(table[i]))) problems.push_back(what + " is not a positive number");
    if (key(table[i]) < 1 || (i > 0 && key(table[i]) <= key(table[i - 1])))
      problems.push_back(what + ": sizes are not ascending positive numbers");
  }
}

double rows_of(const RowStreamRate& r) { return r.rows; }
double bytes_per_s_of(const RowStreamRate& r) { return r.bytes_per_s; }
double accumulators_of(const RegisterTileRate& r) { return r.accumulators; }
double float32_of(const RegisterTileRate& r) { return r.float32; }

}  // namespace

double MachineDescription::constant_division_ops(const std::string& type) const {
  const double divided = constant_division_lanes_per_s.for_type(type);
  return divided > 0 ? std::max(1.0, vector.for_type(type) / divided) : 1.0;
}

double MachineDescription::row_stream_share(double streams, bool last_cache) const {
  const std::vector<RowStreamRate>& table = last_cache ? row_streams_l3 : row_streams;
  if (table.empty()) return 1;
  // The full rate: the median over walks of up to 16 rows, which prefetchers follow (the
  // fastest of a best-of-3 calibration was one run's outlier, 75 GB/s among 37-46).
  // Reused by the thread: the models ask this for every stage they price.
  thread_local std::vector<double> followed;
  followed.clear();
  for (const RowStreamRate& r : table)
    if (r.rows <= 16) followed.push_back(r.bytes_per_s);
  if (followed.empty()) followed.push_back(table.front().bytes_per_s);
  std::sort(followed.begin(), followed.end());
  const size_t n = followed.size();
  const double full = n % 2 ? followed[n / 2] : (followed[n / 2 - 1] + followed[n / 2]) / 2;
  // The calibration's rows are read and written: two streams each.
  const double rate = interpolate(table, streams / 2, rows_of, bytes_per_s_of);
  return full > 0 ? std::min(1.0, rate / full) : 1;
}

double MachineDescription::register_tile_rate(double vectors, double loads_per_step) const {
  if (register_tile.empty()) return vector.float32;
  const double narrow = interpolate(register_tile, vectors, accumulators_of, float32_of);
  if (register_tile_wide.empty() || loads_per_step <= 0 || vectors < register_tile_wide.front().accumulators)
    return narrow;
  const double wide = interpolate(register_tile_wide, vectors, accumulators_of, float32_of);
  const double narrow_loads = 1 + vectors, wide_loads = 2 + vectors / 2;
  if (narrow_loads <= wide_loads) return narrow;  // 2 accumulators: both shapes load 3 a step
  const double t = std::clamp((loads_per_step - wide_loads) / (narrow_loads - wide_loads), 0.0, 1.0);
  return wide + (narrow - wide) * t;
}

double MachineDescription::register_tile_overlap(double steps, double step_ops) const {
  if (reorder_window_ops <= 0 || steps <= 0 || step_ops <= 0) return 1;
  return 1 + reorder_window_ops / (steps * step_ops);
}

double four_to_eight_tile_rate(const MachineDescription& m, double steps) {
  auto rate = [&](int acc) {
    const double loads = 1 + acc;
    const double overlap = m.register_tile_overlap(steps, register_tile_step_ops(acc, loads));
    return m.register_tile_rate(acc * overlap, loads * overlap);
  };
  return rate(4) / rate(8);
}

double reorder_window_for(const MachineDescription& m, double measured, double steps) {
  MachineDescription w = m;
  auto ratio_with = [&](double window) {
    w.reorder_window_ops = window;
    return four_to_eight_tile_rate(w, steps);
  };
  double lo = 0, hi = 4096;
  if (ratio_with(lo) >= measured) return 0;
  if (ratio_with(hi) <= measured) return hi;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (ratio_with(mid) < measured ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double MachineDescription::l2_conflict_miss_share(double bytes) const {
  CacheGeometry g = l2_geometry;
  if (g.ways > 0 && g.line_bytes > 0) g.sets = int(l2_bytes / (int64_t(g.ways) * g.line_bytes));
  return g.conflict_miss_share(bytes);
}

const Bandwidth& MachineDescription::level_for(double bytes) const {
  if (bandwidth.empty()) throw std::runtime_error("machine description has no bandwidth measurements");
  for (const Bandwidth& b : bandwidth)
    if (bytes <= double(capacity(b.level))) return b;
  return bandwidth.back();
}

double MachineDescription::best_bandwidth_for(double bytes) const {
  // The smallest level that holds the data; any faster level measured for a smaller
  // working set cannot hold it, so it is not used. Take the maximum over the levels that
  // can hold it anyway (measurements are noisy, a larger level may have measured faster).
  double best = 0;
  for (const Bandwidth& b : bandwidth)
    if (bytes <= double(capacity(b.level))) best = std::max({best, b.all_cores, b.one_core});
  if (best == 0 && !bandwidth.empty()) best = std::max(bandwidth.back().all_cores, bandwidth.back().one_core);
  return best;
}

void to_json(nlohmann::json& j, const Throughput& t) {
  j = nlohmann::json{{"float32", t.float32}, {"int32", t.int32}, {"int16", t.int16}, {"int8", t.int8}};
}

void from_json(const nlohmann::json& j, Throughput& t) {
  j.at("float32").get_to(t.float32);
  j.at("int32").get_to(t.int32);
  j.at("int16").get_to(t.int16);
  j.at("int8").get_to(t.int8);
}

void to_json(nlohmann::json& j, const Bandwidth& b) {
  j = nlohmann::json{{"level", b.level}, {"bytes", b.bytes}, {"all_cores", b.all_cores}, {"one_core", b.one_core}};
}

void from_json(const nlohmann::json& j, Bandwidth& b) {
  j.at("level").get_to(b.level);
  j.at("bytes").get_to(b.bytes);
  j.at("all_cores").get_to(b.all_cores);
  j.at("one_core").get_to(b.one_core);
}

void to_json(nlohmann::json& j, const CacheGeometry& g) {
  j = nlohmann::json{{"ways", g.ways}, {"sets", g.sets}, {"line_bytes", g.line_bytes}};
}

void from_json(const nlohmann::json& j, CacheGeometry& g) {
  j.at("ways").get_to(g.ways);
  j.at("sets").get_to(g.sets);
  j.at("line_bytes").get_to(g.line_bytes);
}

void to_json(nlohmann::json& j, const LineRate& r) {
  j = nlohmann::json{{"all_cores", r.all_cores}, {"one_core", r.one_core}};
}

void from_json(const nlohmann::json& j, LineRate& r) {
  j.at("all_cores").get_to(r.all_cores);
  j.at("one_core").get_to(r.one_core);
}

void to_json(nlohmann::json& j, const RegisterTileRate& r) {
  j = nlohmann::json{{"accumulators", r.accumulators}, {"float32", r.float32}};
}

void from_json(const nlohmann::json& j, RegisterTileRate& r) {
  j.at("accumulators").get_to(r.accumulators);
  j.at("float32").get_to(r.float32);
}

void to_json(nlohmann::json& j, const RowStreamRate& r) {
  j = nlohmann::json{{"rows", r.rows}, {"bytes_per_s", r.bytes_per_s}};
}

void from_json(const nlohmann::json& j, RowStreamRate& r) {
  j.at("rows").get_to(r.rows);
  j.at("bytes_per_s").get_to(r.bytes_per_s);
}

void to_json(nlohmann::json& j, const MachineDescription& m) {
  j = nlohmann::json{{"cpu", m.cpu},
                     {"halide_target", m.halide_target},
                     {"cores", m.cores},
                     {"vector_bytes", m.vector_bytes},
                     {"lanes", {{"float32", m.lanes_f32}, {"int32", m.lanes_i32},
                                {"uint16", m.lanes_u16}, {"uint8", m.lanes_u8}}},
                     {"cache_bytes", {{"L1d_per_core", m.l1d_bytes}, {"L2_per_core", m.l2_bytes},
                                      {"L3_total", m.l3_bytes}}},
                     {"cache_geometry", {{"L1d", m.l1d_geometry}, {"L2", m.l2_geometry}}},
                     {"scalar_ops_per_s_per_core", m.scalar},
                     {"unvectorized_ops_per_s_per_core", m.unvectorized},
                     {"vector_ops_per_s_per_core", m.vector},
                     {"register_tile_ops_per_s_per_core", m.register_tile},
                     {"register_tile_wide_ops_per_s_per_core", m.register_tile_wide},
                     {"reorder_window_ops", m.reorder_window_ops},
                     {"gather_lanes_per_s_per_core", m.gather_lanes_per_s},
                     {"recurrence_step_s", m.recurrence_step_s},
                     {"variable_division_lanes_per_s_per_core", m.variable_division_lanes_per_s},
                     {"constant_division_lanes_per_s_per_core", m.constant_division_lanes_per_s},
                     {"read_bandwidth_bytes_per_s", m.bandwidth},
                     {"copy_bandwidth_dram_bytes_per_s", m.copy_bandwidth_dram},
                     {"row_streams_copy_bytes_per_s", m.row_streams},
                     {"row_streams_l3_copy_bytes_per_s", m.row_streams_l3},
                     {"column_walk_lines_per_s", m.column_walk},
                     {"column_walk_near_lines_per_s", m.column_walk_near},
                     {"column_walk_bytes", {{"far", m.column_walk_bytes}, {"near", m.column_walk_near_bytes}}},
                     {"parallel_launch_s", m.parallel_launch_s},
                     {"parallel_task_s", m.parallel_task_s},
                     {"parallel_join_s", m.parallel_join_s},
                     {"allocation_s", m.allocation_s},
                     {"measured_at", m.measured_at},
                     {"calibration_seconds", m.calibration_seconds}};
}

void from_json(const nlohmann::json& j, MachineDescription& m) {
  j.at("cpu").get_to(m.cpu);
  j.at("halide_target").get_to(m.halide_target);
  j.at("cores").get_to(m.cores);
  j.at("vector_bytes").get_to(m.vector_bytes);
  const auto& l = j.at("lanes");
  l.at("float32").get_to(m.lanes_f32);
  l.at("int32").get_to(m.lanes_i32);
  l.at("uint16").get_to(m.lanes_u16);
  l.at("uint8").get_to(m.lanes_u8);
  const auto& c = j.at("cache_bytes");
  c.at("L1d_per_core").get_to(m.l1d_bytes);
  c.at("L2_per_core").get_to(m.l2_bytes);
  c.at("L3_total").get_to(m.l3_bytes);
  j.at("cache_geometry").at("L1d").get_to(m.l1d_geometry);
  j.at("cache_geometry").at("L2").get_to(m.l2_geometry);
  j.at("scalar_ops_per_s_per_core").get_to(m.scalar);
  j.at("unvectorized_ops_per_s_per_core").get_to(m.unvectorized);
  j.at("vector_ops_per_s_per_core").get_to(m.vector);
  j.at("register_tile_ops_per_s_per_core").get_to(m.register_tile);
  m.register_tile_wide = j.value("register_tile_wide_ops_per_s_per_core", std::vector<RegisterTileRate>{});
  m.reorder_window_ops = j.value("reorder_window_ops", 0.0);
  j.at("gather_lanes_per_s_per_core").get_to(m.gather_lanes_per_s);
  j.at("recurrence_step_s").get_to(m.recurrence_step_s);
  j.at("variable_division_lanes_per_s_per_core").get_to(m.variable_division_lanes_per_s);
  m.constant_division_lanes_per_s = j.value("constant_division_lanes_per_s_per_core", Throughput{});
  j.at("read_bandwidth_bytes_per_s").get_to(m.bandwidth);
  j.at("copy_bandwidth_dram_bytes_per_s").get_to(m.copy_bandwidth_dram);
  j.at("row_streams_copy_bytes_per_s").get_to(m.row_streams);
  m.row_streams_l3 = j.value("row_streams_l3_copy_bytes_per_s", std::vector<RowStreamRate>{});
  j.at("column_walk_lines_per_s").get_to(m.column_walk);
  j.at("column_walk_near_lines_per_s").get_to(m.column_walk_near);
  j.at("column_walk_bytes").at("far").get_to(m.column_walk_bytes);
  j.at("column_walk_bytes").at("near").get_to(m.column_walk_near_bytes);
  j.at("parallel_launch_s").get_to(m.parallel_launch_s);
  j.at("parallel_task_s").get_to(m.parallel_task_s);
  m.parallel_join_s = j.value("parallel_join_s", 0.0);
  j.at("allocation_s").get_to(m.allocation_s);
  j.at("measured_at").get_to(m.measured_at);
  m.calibration_seconds = j.value("calibration_seconds", 0.0);
}

namespace {

// Merges `other` into `best`: numbers keyed "..._s" (seconds, not "..._per_s") keep the
// smaller, every other number the larger (rates; sizes and counts agree between runs of one
// machine).
void keep_best(nlohmann::json& best, const nlohmann::json& other, const std::string& key) {
  if (best.is_object() && other.is_object()) {
    for (auto it = best.begin(); it != best.end(); ++it)
      if (other.contains(it.key())) keep_best(it.value(), other.at(it.key()), it.key());
  } else if (best.is_array() && other.is_array() && best.size() == other.size()) {
    for (size_t i = 0; i < best.size(); ++i) keep_best(best[i], other[i], key);
  } else if (best.is_number() && other.is_number()) {
    const double a = best.get<double>(), b = other.get<double>();
    auto ends_with = [&](const std::string& tail) {
      return key.size() >= tail.size() && key.compare(key.size() - tail.size(), tail.size(), tail) == 0;
    };
    const bool seconds = ends_with("_s") && !ends_with("_per_s");
    if (key == "calibration_seconds")
      best = a + b;
    else if (seconds ? b < a : b > a)
      best = other;
  }
}

}  // namespace

MachineDescription best_of(const std::vector<MachineDescription>& runs) {
  if (runs.empty()) throw std::invalid_argument("best_of: no calibration runs");
  nlohmann::json best = runs.front();
  for (size_t i = 1; i < runs.size(); ++i) keep_best(best, nlohmann::json(runs[i]), "");
  return best.get<MachineDescription>();
}

MachineDescription load_machine(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read machine description '" + path + "'");
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    const std::string problem = support::shape_problem(j, nlohmann::json(MachineDescription{}));
    if (!problem.empty()) throw std::runtime_error("malformed machine description '" + path + "': " + problem);
    return j.get<MachineDescription>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("malformed machine description '" + path + "': " + e.what());
  }
}

void save_machine(const MachineDescription& m, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  // A temporary of this process's own: two processes calibrating at once each rename a
  // complete file into place, the last one wins.
  const std::string tmp = path + "." + std::to_string(getpid()) + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw std::runtime_error("cannot write machine description '" + path + "'");
    out << nlohmann::json(m).dump(2) << "\n";
  }
  std::filesystem::rename(tmp, path);
}

std::vector<std::string> check_machine(const MachineDescription& m) {
  std::vector<std::string> p;
  auto positive = [&](double v, const std::string& what) {
    if (!(v > 0) || !std::isfinite(v)) p.push_back(what + " is not a positive number");
  };
  if (m.cores < 1) p.push_back("cores < 1");
  positive(m.vector_bytes, "vector_bytes");
  positive(m.l1d_bytes, "L1d size");
  positive(m.l2_bytes, "L2 size");
  positive(m.l3_bytes, "L3 size");
  for (const auto& [t, name] : {std::pair{&m.scalar, "scalar"}, std::pair{&m.unvectorized, "unvectorized"},
                                std::pair{&m.vector, "vector"}}) {
    positive(t->float32, std::string(name) + " float32 throughput");
    positive(t->int32, std::string(name) + " int32 throughput");
    positive(t->int16, std::string(name) + " int16 throughput");
    positive(t->int8, std::string(name) + " int8 throughput");
  }
  if (!(m.reorder_window_ops >= 0) || !std::isfinite(m.reorder_window_ops)) p.push_back("reorder_window_ops is negative");
  positive(m.gather_lanes_per_s, "gather rate");
  positive(m.recurrence_step_s, "recurrence step");
  positive(m.variable_division_lanes_per_s, "division rate");
  check_table(m.register_tile, accumulators_of, float32_of, "register tile float32 throughput", p);
  if (!m.register_tile_wide.empty())
    check_table(m.register_tile_wide, accumulators_of, float32_of, "wide register tile float32 throughput", p);
  check_table(m.row_streams, rows_of, bytes_per_s_of, "row stream bandwidth", p);
  if (!m.row_streams_l3.empty()) check_table(m.row_streams_l3, rows_of, bytes_per_s_of, "L3 row stream bandwidth", p);
  if (m.bandwidth.size() != 4) p.push_back("expected 4 bandwidth levels (L1, L2, L3, DRAM)");
  for (const Bandwidth& b : m.bandwidth) {
    positive(b.all_cores, b.level + " bandwidth (all cores)");
    positive(b.one_core, b.level + " bandwidth (one core)");
  }
  positive(m.column_walk.all_cores, "column walk rate (all cores)");
  positive(m.column_walk.one_core, "column walk rate (one core)");
  positive(m.column_walk_near.all_cores, "near column walk rate (all cores)");
  positive(m.column_walk_near.one_core, "near column walk rate (one core)");
  positive(m.column_walk_bytes, "column walk buffer size");
  positive(m.column_walk_near_bytes, "near column walk buffer size");
  // Unknown geometry (ways 0) is a usable state, priced as fully associative; a known one
  // must be whole.
  for (const auto& [g, name] : {std::pair{&m.l1d_geometry, "L1d"}, std::pair{&m.l2_geometry, "L2"}})
    if (g->ways < 0 || (g->ways > 0 && (g->sets < 1 || g->line_bytes < 1)))
      p.push_back(std::string(name) + " geometry (ways, sets, line) is malformed");
  if (m.parallel_launch_s < 0 || m.parallel_task_s < 0 || m.parallel_join_s < 0 || m.allocation_s < 0)
    p.push_back("negative overhead");
  return p;
}

std::string default_machine_path() {
  if (const char* env = std::getenv("CANDOR_MACHINE"); env && *env) return env;
  const std::filesystem::path prefix = support::module_prefix();
  if (!prefix.empty()) return (support::data_directory(prefix) / "machine.json").string();
  return "machine.json";
}

std::vector<std::string> complete_cache_geometry(MachineDescription& m, const HostCaches& host) {
  std::vector<std::string> completed;
  for (const auto& [name, bytes, geometry, level] :
       {std::tuple{"L1d", m.l1d_bytes, &m.l1d_geometry, &host.l1d}, std::tuple{"L2", m.l2_bytes, &m.l2_geometry, &host.l2}}) {
    if (geometry->ways > 0 || level->geometry.ways <= 0 || level->bytes != bytes) continue;
    *geometry = level->geometry;
    completed.push_back(std::string(name) + " from " + level->source);
  }
  return completed;
}

MachineDescription load_or_calibrate(const std::string& path, const CalibrationOptions& options,
                                     IfUnusable if_unusable) {
  // Calibrating changes every price a model gives, so it is never silent: a path that does
  // not resolve from this directory would otherwise price with a fresh, different machine.
  if (std::filesystem::exists(path)) {
    std::string why;
    try {
      MachineDescription m = load_machine(path);
      const std::vector<std::string> problems = check_machine(m);
      if (problems.empty()) {
        // A file without cache geometry is completed, not measured again: this host's caches
        // of the same sizes describe it.
        if (m.l1d_geometry.ways <= 0 || m.l2_geometry.ways <= 0) {
          const std::vector<std::string> completed = complete_cache_geometry(m, host_caches());
          if (!completed.empty()) {
            std::string list;
            for (const std::string& c : completed) list += (list.empty() ? "" : ", ") + c;
            std::cerr << "candor: completed the cache geometry of " << path << " (" << list << ")\n";
            try {
              save_machine(m, path);
            } catch (const std::exception& e) {  // a read-only file: completed for this run only
              std::cerr << "candor: warning: " << e.what() << "\n";
            }
          }
        }
        return m;
      }
      why = problems.front();
    } catch (const std::exception& e) {
      why = e.what();
    }
    if (if_unusable == IfUnusable::Fail)
      throw std::runtime_error(path + " is not a usable machine description: " + why);
    // Kept aside, not overwritten: it may be a description worth mending by hand.
    const std::string aside = path + ".unusable";
    std::error_code ec;
    std::filesystem::rename(path, aside, ec);
    std::cerr << "candor: " << path << " is not a usable machine description (" << why
              << "): calibrating this machine and saving it there"
              << (ec ? "" : " (the old file is now " + aside + ")") << "\n";
  } else {
    std::cerr << "candor: no machine description at " << path
              << ": calibrating this machine (usually 15-30 s) and saving it there\n";
  }
  MachineDescription m = calibrate(options);
  save_machine(m, path);
  return m;
}

}  // namespace candor::models::halide
