// A three-layer perceptron classifier on a batch of 64: 512 -> 1024 -> 1024 -> 10 fully
// connected layers with tanh-approximated GELU between them, and a numerically stable
// softmax (max subtracted) over the 10 classes.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class MlpSoftmax : public Generator<MlpSoftmax> {
 public:
  Input<Buffer<float>> input{"input", 2};  // (feature, batch)
  Input<Buffer<float>> w1{"w1", 2};        // (out, in)
  Input<Buffer<float>> b1{"b1", 1};
  Input<Buffer<float>> w2{"w2", 2};
  Input<Buffer<float>> b2{"b2", 1};
  Input<Buffer<float>> w3{"w3", 2};
  Input<Buffer<float>> b3{"b3", 1};
  Output<Buffer<float>> output{"output", 2};  // (class, batch)

  // The tanh approximation of GELU used by BERT and GPT-2.
  static Expr gelu(Expr v) {
    const float k = 0.7978845608f;  // sqrt(2 / pi)
    return 0.5f * v * (1.0f + tanh(k * (v + 0.044715f * v * v * v)));
  }

  // A dense layer: the synthetic weights are all positive, so the sum is scaled by the
  // fan-in and centred.
  void dense(Func dot, Func act, Func in, const Input<Buffer<float>>& w, const Input<Buffer<float>>& b, int fan_in,
             RDom& rk) {
    rk = RDom(0, fan_in);
    dot(j, i) = 0.0f;
    dot(j, i) += w(j, rk) * in(rk, i);
    act(j, i) = dot(j, i) * (4.0f / fan_in) + b(j) - 1.5f;
  }

  void generate() {
    Func in = input;
    dense(dot1, pre1, in, w1, b1, n_in, r1);
    h1(j, i) = gelu(pre1(j, i));
    dense(dot2, pre2, h1, w2, b2, n_hidden, r2);
    h2(j, i) = gelu(pre2(j, i));
    dense(dot3, logits, h2, w3, b3, n_hidden, r3);

    RDom k(0, n_classes);
    class_max(i) = maximum(logits(k, i));
    e(j, i) = exp(logits(j, i) - class_max(i));
    class_sum(i) = sum(e(k, i));
    output(j, i) = e(j, i) / class_sum(i);

    input.set_estimates({{0, n_in}, {0, batch}});
    w1.set_estimates({{0, n_hidden}, {0, n_in}});
    b1.set_estimates({{0, n_hidden}});
    w2.set_estimates({{0, n_hidden}, {0, n_hidden}});
    b2.set_estimates({{0, n_hidden}});
    w3.set_estimates({{0, n_classes}, {0, n_hidden}});
    b3.set_estimates({{0, n_classes}});
    output.set_estimates({{0, n_classes}, {0, batch}});
  }

  // A fully connected layer as a GEMM: register tiles of 2 vectors of outputs by 8 batch
  // items, the batch tiles innermost so that a panel of weights stays in cache for all of
  // them, and the panels spread over the cores.
  void schedule_layer(Func act, Func dot, const RDom& rk, int v) {
    act.compute_root()
        .split(j, jo, ji, 2 * v)
        .split(i, io, ii, 8)
        .reorder(ji, ii, io, jo)
        .vectorize(ji, v)
        .unroll(ji)
        .unroll(ii)
        .parallel(jo);
    dot.compute_at(act, io).vectorize(j, v).unroll(j).unroll(i);
    dot.update().reorder(j, i, rk).vectorize(j, v).unroll(j).unroll(i);
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // The two wide layers are blocked GEMMs; the 10-class layer is too narrow to vectorize
    // over classes, so its dot products are vectorized along the hidden dimension (rfactor,
    // with the weights read through a transposed copy) and the softmax runs per batch item.
    schedule_layer(h1, dot1, r1, v);
    schedule_layer(h2, dot2, r2, v);
    RVar rko{"rko"}, rki{"rki"};
    Var u{"u"};
    Func partial = dot3.update().split(r3.x, rko, rki, v).rfactor(rki, u);
    output.split(i, io, ii, 8).parallel(io);
    logits.compute_at(output, ii);
    dot3.compute_at(output, ii);
    partial.compute_at(output, ii).vectorize(u).update().reorder(u, rko, j).vectorize(u);
    Func w3t = w3.in();
    const std::vector<Var> a = w3t.args();
    w3t.compute_root().reorder_storage(a[1], a[0]);
    class_max.compute_at(output, ii);
    class_sum.compute_at(output, ii);
    e.compute_at(output, ii);
  }

 private:
  static constexpr int batch = 64, n_in = 512, n_hidden = 1024, n_classes = 10;
  Var j{"j"}, i{"i"}, jo{"jo"}, ji{"ji"}, io{"io"}, ii{"ii"};
  Func dot1{"dot1"}, pre1{"pre1"}, h1{"h1"}, dot2{"dot2"}, pre2{"pre2"}, h2{"h2"}, dot3{"dot3"}, logits{"logits"};
  Func class_max{"class_max"}, e{"e"}, class_sum{"class_sum"};
  RDom r1, r2, r3;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(MlpSoftmax, mlp_softmax, "3-layer MLP 512->1024->1024->10 on a batch of 64, tanh-GELU, max-subtracted softmax, float")
