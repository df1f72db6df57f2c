#include "random_pipelines.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Halide.h>

#include "halide_bridge/expr_analysis.h"
#include "growth.h"

namespace candor::models::random_pipelines {

namespace hb = candor::halide_bridge;
using Halide::Expr;
using Halide::Func;
using Halide::RDom;
using Halide::Type;
using Halide::Var;

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Pointwise: return "pointwise";
    case Pattern::Combine: return "combine";
    case Pattern::Stencil3x3: return "stencil3x3";
    case Pattern::Stencil5x5: return "stencil5x5";
    case Pattern::Separable: return "separable";
    case Pattern::Downsample: return "downsample";
    case Pattern::Upsample: return "upsample";
    case Pattern::Reduction: return "reduction";
    case Pattern::Histogram: return "histogram";
    case Pattern::Scan: return "scan";
    case Pattern::Convolution: return "convolution";
    case Pattern::MatMul: return "matmul";
    case Pattern::Lut: return "lut";
    case Pattern::Count: break;
  }
  return "?";
}

std::vector<Pattern> all_patterns() {
  std::vector<Pattern> v;
  for (int i = 0; i < int(Pattern::Count); ++i) v.push_back(Pattern(i));
  return v;
}

namespace {

// Stage-count cost of one use of a pattern.
int stages_of(Pattern p) {
  switch (p) {
    case Pattern::Separable:
    case Pattern::Reduction:
    case Pattern::Histogram:
    case Pattern::Lut: return 2;
    default: return 1;
  }
}

Type type_from(int k) { return k == 0 ? Halide::UInt(8) : k == 1 ? Halide::UInt(16) : Halide::Float(32); }

// A wider type for accumulating values of type t.
Type wide(Type t) { return t.is_float() ? t : t.bits() == 8 ? Halide::UInt(16) : Halide::UInt(32); }

Expr to(Type t, Expr e) { return t.is_float() ? Halide::cast(t, e) : Halide::saturating_cast(t, e); }
Expr f32(Expr e) { return Halide::cast<float>(e); }

struct Value {
  Func f;
  Type type;
  int level = 0;
  bool consumed = false;
};

// Grows the pipeline from the seed. With `inst` null only the plan (info) is produced, but
// the same Halide Funcs are defined either way, so both paths see the same random stream.
class Generator {
 public:
  Generator(uint64_t seed, const RandomPipelineOptions& o) : rng_(seed), o_(o) {
    if (o_.min_stages < 1 || o_.max_stages < o_.min_stages || o_.size < 8 || o_.max_inputs < 1)
      throw std::invalid_argument("random_pipeline: bad options");
    allowed_ = o_.patterns.empty() ? all_patterns() : o_.patterns;
    info_.seed = seed;
    // One seed at two sizes is two pipelines: the name carries a size other than the default.
    info_.name = "random_" + std::to_string(seed);
    if (o_.size != RandomPipelineOptions{}.size) info_.name += "_" + std::to_string(o_.size);
  }

  RandomPipelineInfo run(hb::AppInstance* inst) {
    const int n_inputs = 1 + rng_.below(o_.max_inputs);
    for (int i = 0; i < n_inputs; ++i) add_input(i, inst);
    const int n = o_.min_stages + rng_.below(o_.max_stages - o_.min_stages + 1);
    while (used_ < n) {
      const int remaining = n - used_;
      Value& last = values_.back();
      if (remaining == 1 && last.level > 0) {
        upsample_to_0(last);
        break;
      }
      const Pattern p = allowed_[rng_.below(int(allowed_.size()))];
      const int primary = pick_primary(values_, rng_);
      if (!apply(p, primary, remaining)) apply(Pattern::Pointwise, primary, remaining);
    }
    if (values_.back().level > 0 || used_ == 0) upsample_to_0(values_.back());
    Value& out = values_.back();
    out.f.set_estimates({{0, o_.size}, {0, o_.size}});
    if (inst) {
      inst->outputs = {out.f};
      inst->output_sizes = {{o_.size, o_.size}};
      compute_everything_at_root(*inst);
    }
    return info_;
  }

 private:
  Rng rng_;
  RandomPipelineOptions o_;
  std::vector<Pattern> allowed_;
  RandomPipelineInfo info_;
  std::vector<Value> values_;
  std::vector<Func> all_funcs_;
  int used_ = 0;
  hb::AppInstance* inst_ = nullptr;
  Var x{"x"}, y{"y"}, i{"i"};

  int size_at(int level) const { return std::max(1, o_.size >> level); }

  void add_input(int k, hb::AppInstance* inst) {
    inst_ = inst;
    const int tk = rng_.below(3);
    const Type t = type_from(tk);
    const uint32_t data_seed = uint32_t(rng_.next());
    const std::string name = "input" + std::to_string(k);
    info_.input_types.push_back(hb::type_name(t));
    Halide::ImageParam in(t, 2, name);
    in.set_estimates({{0, o_.size}, {0, o_.size}});
    if (inst) {
      Halide::Buffer<> b(t, o_.size, o_.size);
      uint32_t s = data_seed;
      auto next = [&] { s = s * 1664525u + 1013904223u; return s >> 8; };
      if (t == Halide::UInt(8)) {
        Halide::Buffer<uint8_t> bb(b);
        bb.for_each_value([&](uint8_t& v) { v = uint8_t(next() % 256); });
      } else if (t == Halide::UInt(16)) {
        Halide::Buffer<uint16_t> bb(b);
        bb.for_each_value([&](uint16_t& v) { v = uint16_t(next() % 4096); });
      } else {
        Halide::Buffer<float> bb(b);
        bb.for_each_value([&](float& v) { v = float(next() % 10000) / 100.0f; });
      }
      in.set(b);
      inst->inputs.push_back(in);
    }
    Func clamped = Halide::BoundaryConditions::repeat_edge(in);
    Func c(name + "_clamped");
    c(x, y) = clamped(x, y);
    if (inst) inst->funcs[c.name()] = c;
    values_.push_back(Value{c, t, 0, false});
  }

  // A second operand at `level`, preferring unconsumed ones; -1 if none but `not_this`.
  int pick_partner(int level, int not_this) {
    std::vector<int> open, any;
    for (int k = 0; k < int(values_.size()); ++k) {
      if (k == not_this || values_[k].level != level) continue;
      any.push_back(k);
      if (!values_[k].consumed) open.push_back(k);
    }
    if (!open.empty()) return open[rng_.below(int(open.size()))];
    if (!any.empty()) return any[rng_.below(int(any.size()))];
    return -1;
  }

  Type out_type(Type in) { return rng_.chance(25) ? type_from(rng_.below(3)) : in; }

  Func define(const std::string& what, Pattern p, Type t, int level) {
    const std::string name = "s" + std::to_string(used_) + "_" + what;
    ++used_;
    Func f(name);
    info_.stages.push_back({name, p, hb::type_name(t), level});
    if (inst_) inst_->funcs[name] = f;
    return f;
  }

  void push(Func f, Type t, int level) { values_.push_back(Value{f, t, level, false}); }

  void upsample_to_0(Value& v) {
    const int L = v.level;
    v.consumed = true;
    Func f = define("upsample", Pattern::Upsample, v.type, 0);
    f(x, y) = v.f(x >> L, y >> L);
    push(f, v.type, 0);
  }

  // Applies pattern p to values_[a]; false when it does not fit here.
  bool apply(Pattern p, int a, int remaining) {
    const int k = stages_of(p);
    const Value va = values_[a];
    int new_level = va.level;
    if (p == Pattern::Downsample) new_level = va.level + 1;
    if (p == Pattern::Upsample) new_level = va.level - 1;
    if (new_level < 0 || new_level > o_.max_level) return false;
    if (k > remaining || (new_level > 0 && k + 1 > remaining)) return false;
    const int n = size_at(va.level);
    if (n < 8 && (p == Pattern::Downsample)) return false;
    values_[a].consumed = true;
    Func src = va.f;
    const Type tin = va.type;
    switch (p) {
      case Pattern::Pointwise: {
        const Type t = out_type(tin);
        Func f = define("pointwise", p, t, va.level);
        const int v = rng_.below(4);
        Expr e = src(x, y);
        if (v == 0) f(x, y) = to(t, f32(e) * (0.5f + rng_.unit()) + float(rng_.below(16)));
        else if (v == 1) f(x, y) = to(t, Halide::select(e > Halide::cast(tin, 8 + rng_.below(64)), e, Halide::cast(tin, 1)));
        else if (v == 2) f(x, y) = to(t, Halide::sqrt(Halide::abs(f32(e))) * 8.0f);
        else f(x, y) = to(t, Halide::absd(e, Halide::cast(tin, rng_.below(100))));
        push(f, t, va.level);
        return true;
      }
      case Pattern::Combine: {
        const int b = pick_partner(va.level, a);
        const Type t = out_type(tin);
        Func f = define("combine", p, t, va.level);
        Expr ea = f32(src(x, y));
        Expr eb = b >= 0 ? f32(values_[b].f(x, y)) : f32(src(y, x));  // with itself: transposed
        if (b >= 0) values_[b].consumed = true;
        const int v = rng_.below(3);
        const float w = 0.25f + 0.5f * rng_.unit();
        if (v == 0) f(x, y) = to(t, ea * w + eb * (1.0f - w));
        else if (v == 1) f(x, y) = to(t, Halide::max(ea, eb));
        else f(x, y) = to(t, Halide::abs(ea - eb));
        push(f, t, va.level);
        return true;
      }
      case Pattern::Stencil3x3:
      case Pattern::Stencil5x5: {
        const int r = p == Pattern::Stencil3x3 ? 1 : 2;
        const Type t = out_type(tin), w = wide(tin);
        Func f = define(p == Pattern::Stencil3x3 ? "stencil3x3" : "stencil5x5", p, t, va.level);
        Expr sum;
        int total = 0;
        for (int dy = -r; dy <= r; ++dy)
          for (int dx = -r; dx <= r; ++dx) {
            const int k = 1 + rng_.below(3);
            total += k;
            Expr term = Halide::cast(w, src(x + dx, y + dy)) * Halide::cast(w, k);
            sum = sum.defined() ? sum + term : term;
          }
        f(x, y) = to(t, sum / Halide::cast(w, total));
        push(f, t, va.level);
        return true;
      }
      case Pattern::Separable: {
        const int r = 1 + rng_.below(3);
        const Type t = out_type(tin), w = tin.is_float() ? tin : Halide::UInt(32);
        std::vector<int> taps;
        int total = 0;
        for (int d = -r; d <= r; ++d) taps.push_back(1 + r - std::abs(d)), total += taps.back();
        Func h = define("separable_x", p, w, va.level);
        Expr sh;
        for (int d = -r; d <= r; ++d) {
          Expr term = Halide::cast(w, src(x + d, y)) * Halide::cast(w, taps[d + r]);
          sh = sh.defined() ? sh + term : term;
        }
        h(x, y) = sh;
        Func v = define("separable_y", p, t, va.level);
        Expr sv;
        for (int d = -r; d <= r; ++d) {
          Expr term = h(x, y + d) * Halide::cast(w, taps[d + r]);
          sv = sv.defined() ? sv + term : term;
        }
        v(x, y) = to(t, sv / Halide::cast(w, total * total));
        push(v, t, va.level);
        return true;
      }
      case Pattern::Downsample: {
        const Type w = wide(tin);
        Func f = define("downsample", p, tin, new_level);
        Expr s = Halide::cast(w, src(2 * x, 2 * y)) + Halide::cast(w, src(2 * x + 1, 2 * y)) +
                 Halide::cast(w, src(2 * x, 2 * y + 1)) + Halide::cast(w, src(2 * x + 1, 2 * y + 1));
        f(x, y) = Halide::cast(tin, s / Halide::cast(w, 4));
        push(f, tin, new_level);
        return true;
      }
      case Pattern::Upsample: {
        const Type w = wide(tin);
        Func f = define("upsample", p, tin, new_level);
        if (rng_.chance(50)) f(x, y) = src(x / 2, y / 2);
        else f(x, y) = Halide::cast(tin, (Halide::cast(w, src(x / 2, y / 2)) + Halide::cast(w, src((x + 1) / 2, (y + 1) / 2))) / Halide::cast(w, 2));
        push(f, tin, new_level);
        return true;
      }
      case Pattern::Reduction: {
        const bool rows = rng_.chance(50), use_max = rng_.chance(30);
        const Type t = out_type(tin);
        Func red = define(rows ? "row_reduce" : "col_reduce", p, Halide::Float(32), va.level);
        RDom r(0, n, "r");
        red(i) = use_max ? 1.0f : 0.0f;
        Expr rd = rows ? f32(src(r, i)) : f32(src(i, r));
        if (use_max) red(i) = Halide::max(red(i), rd);
        else red(i) += rd;
        Func f = define("normalize", p, t, va.level);
        Expr denom = rows ? red(y) : red(x);
        f(x, y) = to(t, f32(src(x, y)) * (use_max ? 255.0f : 255.0f * float(n)) / (denom + 1.0f));
        push(f, t, va.level);
        return true;
      }
      case Pattern::Histogram: {
        const Type t = out_type(tin);
        const int shift = tin.bits() == 16 ? 4 : 0;
        auto bin = [&](Expr e) {
          if (tin.is_float()) return Halide::clamp(Halide::cast<int>(e), 0, 255);
          return Halide::clamp(Halide::cast<int>(e) >> shift, 0, 255);
        };
        Func hist = define("histogram", p, Halide::Int(32), va.level);
        RDom r(0, n, 0, n, "r");
        hist(i) = 0;
        hist(bin(src(r.x, r.y))) += 1;
        Func f = define("equalize", p, t, va.level);
        f(x, y) = to(t, f32(hist(bin(src(x, y)))) * (255.0f * 256.0f / float(n * n)));
        push(f, t, va.level);
        return true;
      }
      case Pattern::Scan: {
        const bool along_x = rng_.chance(50);
        const float alpha = 0.2f + 0.6f * rng_.unit();
        Func f = define(along_x ? "scan_x" : "scan_y", p, Halide::Float(32), va.level);
        RDom r(1, n - 1, "r");
        f(x, y) = f32(src(x, y));
        if (along_x) f(r, y) = f(r, y) * (1.0f - alpha) + f(r - 1, y) * alpha;
        else f(x, r) = f(x, r) * (1.0f - alpha) + f(x, r - 1) * alpha;
        push(f, Halide::Float(32), va.level);
        return true;
      }
      case Pattern::Convolution: {
        Halide::Buffer<float> w(3, 3, "s" + std::to_string(used_) + "_weights");
        float total = 0;
        for (int dy = 0; dy < 3; ++dy)
          for (int dx = 0; dx < 3; ++dx) total += (w(dx, dy) = 0.1f + rng_.unit());
        for (int dy = 0; dy < 3; ++dy)
          for (int dx = 0; dx < 3; ++dx) w(dx, dy) /= total;
        Func f = define("convolution", p, Halide::Float(32), va.level);
        RDom r(0, 3, 0, 3, "r");
        f(x, y) = 0.0f;
        f(x, y) += w(r.x, r.y) * f32(src(x + r.x - 1, y + r.y - 1));
        push(f, Halide::Float(32), va.level);
        return true;
      }
      case Pattern::MatMul: {
        int b = pick_partner(va.level, a);
        Func other = b >= 0 ? values_[b].f : src;
        if (b >= 0) values_[b].consumed = true;
        Func f = define("matmul", p, Halide::Float(32), va.level);
        RDom k(0, n, "k");
        f(x, y) = 0.0f;
        f(x, y) += f32(src(k, y)) * f32(other(x, k)) * (1.0f / float(n));
        push(f, Halide::Float(32), va.level);
        return true;
      }
      case Pattern::Lut: {
        const Type t = out_type(tin);
        const float gamma = 0.5f + rng_.unit();
        Func lut = define("lut", p, t, va.level);
        lut(i) = to(t, 255.0f * Halide::pow(f32(i) / 255.0f, gamma));
        Func f = define("gather", p, t, va.level);
        Expr idx = tin.bits() == 16 ? Halide::cast<int>(src(x, y)) >> 4 : Halide::cast<int>(src(x, y));
        f(x, y) = lut(Halide::clamp(idx, 0, 255));
        push(f, t, va.level);
        return true;
      }
      case Pattern::Count: break;
    }
    return false;
  }
};

}  // namespace

RandomPipelineInfo random_pipeline_info(uint64_t seed, const RandomPipelineOptions& options) {
  return Generator(seed, options).run(nullptr);
}

hb::App random_pipeline(uint64_t seed, const RandomPipelineOptions& options) {
  const RandomPipelineInfo info = random_pipeline_info(seed, options);
  hb::App app;
  app.name = info.name;
  app.description = "random pipeline, " + std::to_string(info.stages.size()) + " stages:";
  for (const auto& s : info.stages) app.description += std::string(" ") + pattern_name(s.pattern);
  app.build = [seed, options] {
    hb::AppInstance inst;
    Generator(seed, options).run(&inst);
    return inst;
  };
  return app;
}

}  // namespace candor::models::random_pipelines
