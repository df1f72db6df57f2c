#include "layer_pipelines.h"

#include <cmath>
#include <stdexcept>

#include <Halide.h>

#include "growth.h"

namespace candor::models::random_pipelines {

namespace hb = candor::halide_bridge;
using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::RDom;
using Halide::Var;

const char* layer_name(Layer l) {
  switch (l) {
    case Layer::Conv3x3: return "conv3x3";
    case Layer::Depthwise3x3: return "depthwise3x3";
    case Layer::Pointwise1x1: return "pointwise1x1";
    case Layer::Activation: return "activation";
    case Layer::Pool: return "pool";
    case Layer::Upsample: return "upsample";
    case Layer::Residual: return "residual";
    case Layer::ChannelNorm: return "channel_norm";
    case Layer::GlobalScale: return "global_scale";
    case Layer::Count: break;
  }
  return "?";
}

std::vector<Layer> all_layers() {
  std::vector<Layer> v;
  for (int i = 0; i < int(Layer::Count); ++i) v.push_back(Layer(i));
  return v;
}

namespace {

const int kDefaultSize = LayerPipelineOptions{}.size;

struct Value {
  Func f;
  int channels = 0;
  int level = 0;
  bool consumed = false;
  bool zero_outside = false;  // reads outside the image give 0 (a padded Func)
};

// Grows the pipeline from the seed. With `inst` null only the plan (info) is produced; the
// random stream is drawn the same way either way, so both paths agree.
class LayerGenerator {
 public:
  LayerGenerator(uint64_t seed, const LayerPipelineOptions& o) : rng_(seed), o_(o) {
    if (o_.min_layers < 1 || o_.max_layers < o_.min_layers || o_.size < 8 || o_.max_level < 0)
      throw std::invalid_argument("layer_pipeline: bad options");
    allowed_ = o_.layers.empty() ? all_layers() : o_.layers;
    info_.seed = seed;
    info_.name = "layers_" + std::to_string(seed);
    if (o_.size != kDefaultSize) info_.name += "_" + std::to_string(o_.size);
  }

  LayerPipelineInfo run(hb::AppInstance* inst) {
    inst_ = inst;
    add_input();
    const int n = o_.min_layers + rng_.below(o_.max_layers - o_.min_layers + 1);
    for (int k = 0; k < n; ++k) {
      const Layer l = allowed_[rng_.below(int(allowed_.size()))];
      const int primary = pick_primary(values_, rng_);
      if (!apply(l, primary)) apply(Layer::Activation, primary);
    }
    const Value& out = values_.back();
    const int side = size_at(out.level);
    info_.output_size = {out.channels, side, side};
    Func result = out.f;
    result.set_estimates({{0, out.channels}, {0, side}, {0, side}});
    if (inst_) {
      inst_->outputs = {result};
      inst_->output_sizes = {info_.output_size};
      compute_everything_at_root(*inst_);
    }
    return info_;
  }

 private:
  Rng rng_;
  LayerPipelineOptions o_;
  std::vector<Layer> allowed_;
  LayerPipelineInfo info_;
  std::vector<Value> values_;
  int stages_ = 0;
  hb::AppInstance* inst_ = nullptr;
  Var c{"c"}, x{"x"}, y{"y"};

  int size_at(int level) const { return std::max(1, o_.size >> level); }

  // A float32 input of `sizes`, uniform in [lo, hi), bound and with estimates when building.
  ImageParam parameter(const std::string& name, const std::vector<int>& sizes, float lo, float hi) {
    const uint32_t data_seed = uint32_t(rng_.next());
    ImageParam p(Halide::Float(32), int(sizes.size()), name);
    Halide::Region region;
    for (int s : sizes) region.emplace_back(0, s);
    p.set_estimates(region);
    if (inst_) {
      Halide::Buffer<float> b(sizes);
      uint32_t s = data_seed;
      b.for_each_value([&](float& v) {
        s = s * 1664525u + 1013904223u;
        v = lo + (hi - lo) * float(s >> 8) / float(1u << 24);
      });
      p.set(b);
      inst_->inputs.push_back(p);
    }
    return p;
  }

  // Weights of a layer summing `fan_in` products: uniform in +-1/sqrt(fan_in) keeps every
  // value near unit scale however deep the pipeline, so outputs compare with a tolerance.
  ImageParam weights(const std::string& name, const std::vector<int>& sizes, int fan_in) {
    const float a = 1.0f / std::sqrt(float(fan_in));
    return parameter(name, sizes, -a, a);
  }

  Func define(const std::string& what, Layer l, int channels, int level) {
    const std::string name = "s" + std::to_string(stages_++) + "_" + what;
    Func f(name);
    info_.stages.push_back({name, l, channels, level});
    if (inst_) inst_->funcs[name] = f;
    return f;
  }

  std::string param_name(const std::string& what) const { return "s" + std::to_string(stages_) + "_" + what; }

  // `f`(c, x, y) with zeros outside the n x n image, reading `f` inside it only.
  Expr zero_padded(Func f, int n, Expr cc, Expr xx, Expr yy) {
    return Halide::select(xx >= 0 && xx < n && yy >= 0 && yy < n,
                          f(cc, Halide::clamp(xx, 0, n - 1), Halide::clamp(yy, 0, n - 1)), 0.0f);
  }

  void add_input() {
    static const int kChannels[] = {3, 8, 16, 32};
    const int channels = kChannels[rng_.below(4)];
    info_.input_channels = channels;
    const int n = o_.size;
    ImageParam in = parameter("input", {channels, n, n}, 0.0f, 1.0f);
    Func padded("input_padded");
    padded(c, x, y) = zero_padded(in, n, c, x, y);
    if (inst_) inst_->funcs["input_padded"] = padded;
    values_.push_back(Value{padded, channels, 0, false, true});
  }


  // A value of a's shape other than a itself, preferring unconsumed ones; -1 if none.
  int pick_partner(int a) {
    std::vector<int> open, any;
    for (int k = 0; k < int(values_.size()); ++k) {
      if (k == a || values_[k].level != values_[a].level || values_[k].channels != values_[a].channels) continue;
      any.push_back(k);
      if (!values_[k].consumed) open.push_back(k);
    }
    if (!open.empty()) return open[rng_.below(int(open.size()))];
    if (!any.empty()) return any[rng_.below(int(any.size()))];
    return -1;
  }

  int output_channels() {
    static const int kChannels[] = {8, 16, 32, 64};
    return kChannels[rng_.below(4)];
  }

  void push(Func f, int channels, int level) { values_.push_back(Value{f, channels, level, false, false}); }

  // The value a 3x3 window reads: va itself when it is zero outside, else a padding stage.
  Func padded_source(const Value& va, Layer l) {
    if (va.zero_outside) return va.f;
    Func pad = define("pad", l, va.channels, va.level);
    pad(c, x, y) = zero_padded(va.f, size_at(va.level), c, x, y);
    return pad;
  }

  // Applies layer l to values_[a]; false when it does not fit here.
  bool apply(Layer l, int a) {
    const Value va = values_[a];
    const int n = size_at(va.level), cin = va.channels;
    if (l == Layer::Pool && (va.level + 1 > o_.max_level || n < 8)) return false;
    if (l == Layer::Upsample && va.level == 0) return false;
    const int partner = l == Layer::Residual ? pick_partner(a) : -1;
    if (l == Layer::Residual && partner < 0) return false;
    values_[a].consumed = true;
    Func src = va.f;
    switch (l) {
      case Layer::Conv3x3: {
        const int cout = output_channels();
        Func in = padded_source(va, l);
        ImageParam w = weights(param_name("weights"), {cout, 3, 3, cin}, 9 * cin);
        ImageParam b = parameter(param_name("bias"), {cout}, -0.1f, 0.1f);
        Func f = define("conv", l, cout, va.level);
        RDom r(0, 3, 0, 3, 0, cin, "r");
        f(c, x, y) = b(c);
        f(c, x, y) += w(c, r.x, r.y, r.z) * in(r.z, x + r.x - 1, y + r.y - 1);
        push(f, cout, va.level);
        return true;
      }
      case Layer::Depthwise3x3: {
        Func in = padded_source(va, l);
        ImageParam w = weights(param_name("weights"), {cin, 3, 3}, 9);
        ImageParam b = parameter(param_name("bias"), {cin}, -0.1f, 0.1f);
        Func f = define("depthwise", l, cin, va.level);
        RDom r(0, 3, 0, 3, "r");
        f(c, x, y) = b(c);
        f(c, x, y) += w(c, r.x, r.y) * in(c, x + r.x - 1, y + r.y - 1);
        push(f, cin, va.level);
        return true;
      }
      case Layer::Pointwise1x1: {
        const int cout = output_channels();
        ImageParam w = weights(param_name("weights"), {cout, cin}, cin);
        ImageParam b = parameter(param_name("bias"), {cout}, -0.1f, 0.1f);
        Func f = define("pointwise", l, cout, va.level);
        RDom r(0, cin, "r");
        f(c, x, y) = b(c);
        f(c, x, y) += w(c, r) * src(r, x, y);
        push(f, cout, va.level);
        return true;
      }
      case Layer::Activation: {
        const int kind = rng_.below(4);
        if (kind == 3) {
          ImageParam scale = parameter(param_name("scale"), {cin}, 0.5f, 1.5f);
          ImageParam shift = parameter(param_name("shift"), {cin}, -0.2f, 0.2f);
          Func f = define("batchnorm", l, cin, va.level);
          f(c, x, y) = src(c, x, y) * scale(c) + shift(c);
          push(f, cin, va.level);
          return true;
        }
        Func f = define(kind == 0 ? "relu" : kind == 1 ? "relu6" : "leaky_relu", l, cin, va.level);
        Expr e = src(c, x, y);
        if (kind == 0) f(c, x, y) = Halide::max(e, 0.0f);
        else if (kind == 1) f(c, x, y) = Halide::clamp(e, 0.0f, 6.0f);
        else f(c, x, y) = Halide::select(e > 0.0f, e, 0.1f * e);
        push(f, cin, va.level);
        return true;
      }
      case Layer::Pool: {
        const bool use_max = rng_.chance(60);
        Func f = define(use_max ? "max_pool" : "avg_pool", l, cin, va.level + 1);
        Expr p00 = src(c, 2 * x, 2 * y), p10 = src(c, 2 * x + 1, 2 * y), p01 = src(c, 2 * x, 2 * y + 1),
             p11 = src(c, 2 * x + 1, 2 * y + 1);
        if (use_max) f(c, x, y) = Halide::max(Halide::max(p00, p10), Halide::max(p01, p11));
        else f(c, x, y) = (p00 + p10 + p01 + p11) * 0.25f;
        push(f, cin, va.level + 1);
        return true;
      }
      case Layer::Upsample: {
        Func f = define("upsample", l, cin, va.level - 1);
        f(c, x, y) = src(c, x / 2, y / 2);
        push(f, cin, va.level - 1);
        return true;
      }
      case Layer::Residual: {
        values_[partner].consumed = true;
        Func f = define("residual", l, cin, va.level);
        f(c, x, y) = src(c, x, y) + values_[partner].f(c, x, y);
        push(f, cin, va.level);
        return true;
      }
      case Layer::ChannelNorm: {
        Func norm = define("channel_sumsq", l, 1, va.level);
        RDom r(0, cin, "r");
        norm(x, y) = 0.0f;
        norm(x, y) += src(r, x, y) * src(r, x, y);
        Func f = define("channel_normalize", l, cin, va.level);
        f(c, x, y) = src(c, x, y) / Halide::sqrt(norm(x, y) + 1e-3f);
        push(f, cin, va.level);
        return true;
      }
      case Layer::GlobalScale: {
        Func mean = define("global_mean", l, cin, va.level);
        RDom r(0, n, 0, n, "r");
        mean(c) = 0.0f;
        mean(c) += src(c, r.x, r.y) * (1.0f / float(n * n));
        Func f = define("gate", l, cin, va.level);
        f(c, x, y) = src(c, x, y) / (1.0f + Halide::exp(-mean(c)));
        push(f, cin, va.level);
        return true;
      }
      case Layer::Count: break;
    }
    return false;
  }
};

}  // namespace

LayerPipelineInfo layer_pipeline_info(uint64_t seed, const LayerPipelineOptions& options) {
  return LayerGenerator(seed, options).run(nullptr);
}

hb::App layer_pipeline(uint64_t seed, const LayerPipelineOptions& options) {
  const LayerPipelineInfo info = layer_pipeline_info(seed, options);
  hb::App app;
  app.name = info.name;
  app.description = "layer pipeline, " + std::to_string(info.input_channels) + " input channels, " +
                    std::to_string(info.stages.size()) + " stages:";
  for (const auto& s : info.stages) app.description += std::string(" ") + layer_name(s.layer);
  app.build = [seed, options] {
    hb::AppInstance inst;
    LayerGenerator(seed, options).run(&inst);
    return inst;
  };
  return app;
}

}  // namespace candor::models::random_pipelines
