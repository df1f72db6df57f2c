#include "traversal.h"

#include <algorithm>
#include <cmath>

namespace candor::models::halide {

LineFootprint line_footprint(const std::vector<double>& box, const std::vector<double>& shape, int elem_bytes,
                             int line_bytes) {
  LineFootprint f;
  if (box.empty()) return f;
  size_t k = 0;
  double run = box[0], stride = elem_bytes;
  while (k + 1 < box.size() && k < shape.size() && box[k] >= shape[k]) {
    stride *= shape[k];
    ++k;
    run *= box[k];
  }
  stride *= k < shape.size() ? shape[k] : box[k];
  for (size_t d = k + 1; d < box.size(); ++d) f.rows *= box[d];
  f.row_stride_bytes = stride;
  const double run_bytes = run * elem_bytes;
  // Tiles a power of two wide start at multiples of their width (splits start at the
  // buffer's origin, which Halide aligns): on rows a whole number of lines apart such a run
  // starts at a line boundary, or lies inside one line. Other runs (a stencil's, a tile plus
  // its halo) start anywhere: r bytes from a random element span (r - elem) / line + 1 lines.
  const auto whole_bytes = int64_t(run_bytes);
  const bool aligned = double(whole_bytes) == run_bytes && whole_bytes > 0 && (whole_bytes & (whole_bytes - 1)) == 0 &&
                       (f.rows <= 1 || std::fmod(stride, line_bytes) == 0);
  f.run_lines = aligned ? std::max(1.0, std::ceil(run_bytes / line_bytes))
                        : std::max(1.0, (run_bytes - elem_bytes) / line_bytes + 1);
  return f;
}

std::map<std::string, double> column_walk_lines(const std::vector<NestLoop>& nest, size_t loops,
                         const BoxesOf& boxes,
                         const CacheGeometry& geometry, double capacity_lines) {
  std::vector<double> len(loops, 1.0);
  const BufferBoxes* body = &boxes(len);
  const double streams = std::max<size_t>(1, body->size());
  auto fits = [&](const LineFootprint& f) {
    const double cap = std::min(capacity_lines, geometry.capacity_lines(f.rows, f.run_lines, f.row_stride_bytes));
    return f.lines() * streams <= cap;
  };
  std::map<std::string, bool> done;
  std::map<std::string, double> walked;
  for (size_t j = 0; j < nest.size() && done.size() < body->size(); ++j) {
    std::vector<double> next = len;
    next[nest[j].loop] *= nest[j].extent;
    const BufferBoxes& whole = boxes(next);
    const BufferBoxes* two = nullptr;  // two iterations of loop j, when needed
    for (const auto& [name, f] : whole) {
      if (done.count(name) || fits(f)) continue;
      done[name] = true;
      if (j == 0) continue;
      if (!two) {
        std::vector<double> l2 = len;
        l2[nest[j].loop] *= 2;
        two = &boxes(l2);
      }
      const auto in_body = body->find(name);
      const LineFootprint b = in_body != body->end() ? in_body->second : LineFootprint();
      const auto t = two->find(name);
      const double fresh = t != two->end() && fits(t->second) ? std::max(0.0, t->second.lines() - b.lines()) : b.lines();
      double iterations = 1;
      for (size_t k = j; k < nest.size(); ++k) iterations *= nest[k].extent;
      walked[name] += iterations * fresh * std::min(1.0, 2.0 / b.run_lines);
    }
    len = std::move(next);
    body = &whole;
  }
  return walked;
}

double open_row_streams(const std::vector<NestLoop>& nest, size_t loops,
                        const BoxesOf& boxes,
                        std::vector<double>* back) {
  std::vector<double> len(loops, 1.0);
  const BufferBoxes* body = &boxes(len);
  std::map<std::string, double> open;
  double most = 0;
  std::vector<double> most_len;
  for (const NestLoop& l : nest) {
    if (l.extent <= 1) continue;
    std::vector<double> inside = len;
    len[l.loop] *= l.extent;
    const BufferBoxes& whole = boxes(len);
    for (const auto& [name, f] : whole) {
      const auto b = body->find(name);
      if (b == body->end()) continue;
      if (b->second.rows > 1 && f.run_lines > b->second.run_lines * 1.01) {
        open[name] = std::max(open[name], b->second.rows);
        if (b->second.rows > most) {
          most = b->second.rows;
          most_len = inside;
        }
      }
    }
    body = &whole;
  }
  if (back) *back = most > 0 ? most_len : len;
  double streams = 0;
  for (const auto& [name, f] : *body) {
    const auto o = open.find(name);
    streams += o != open.end() ? o->second : f.rows;
  }
  return streams;
}

}  // namespace candor::models::halide
