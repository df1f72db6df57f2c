// Transformer layer normalization of 4 sequences of 2048 tokens of 768 channels, laid out
// (channel, token, sequence): each token's mean and variance over the channels from one pass
// of sums, then normalization with a learned per-channel gain and bias.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class LayerNorm : public Generator<LayerNorm> {
 public:
  Input<Buffer<float>> input{"input", 3};  // (channel, token, sequence)
  Input<Buffer<float>> gamma{"gamma", 1};
  Input<Buffer<float>> beta{"beta", 1};
  Output<Buffer<float>> output{"output", 3};

  void generate() {
    const float eps = 1e-5f;
    // One pass over each token's channels gathers the sum and the sum of squares.
    r = RDom(0, channels);
    sums(t, n) = Tuple(0.0f, 0.0f);
    sums(t, n) = Tuple(sums(t, n)[0] + input(r, t, n), sums(t, n)[1] + input(r, t, n) * input(r, t, n));
    mean(t, n) = sums(t, n)[0] * (1.0f / channels);
    Expr variance = max(sums(t, n)[1] * (1.0f / channels) - mean(t, n) * mean(t, n), 0.0f);
    inv_std(t, n) = 1.0f / sqrt(variance + eps);

    output(c, t, n) = (input(c, t, n) - mean(t, n)) * inv_std(t, n) * gamma(c) + beta(c);

    input.set_estimates({{0, channels}, {0, tokens}, {0, sequences}});
    gamma.set_estimates({{0, channels}});
    beta.set_estimates({{0, channels}});
    output.set_estimates({{0, channels}, {0, tokens}, {0, sequences}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int vec = natural_vector_size<float>();
    // Each token row stays in L1 between its two reads: the channel sums are split into
    // vector lanes (rfactor) so that they vectorize, and blocks of tokens go to the cores.
    output.split(t, to, ti, 16).fuse(to, n, tn).parallel(tn).vectorize(c, vec * 2);
    RVar ro{"ro"}, ri{"ri"};
    Var lane{"lane"};
    Func lanes = sums.update().split(r.x, ro, ri, vec * 2).rfactor(ri, lane);
    sums.compute_at(output, ti);
    lanes.compute_at(output, ti).vectorize(lane, vec);
    lanes.update().reorder(lane, ro).vectorize(lane, vec);
    mean.compute_at(output, ti);
    inv_std.compute_at(output, ti);
  }

 private:
  static constexpr int channels = 768, tokens = 2048, sequences = 4;
  Var c{"c"}, t{"t"}, n{"n"}, to{"to"}, ti{"ti"}, tn{"tn"};
  Func sums{"sums"}, mean{"mean"}, inv_std{"inv_std"};
  RDom r;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(LayerNorm, layer_norm, "layer normalization over 768 channels of 4x2048 tokens, one-pass sums, gamma/beta, float (channel, token, seq)")
