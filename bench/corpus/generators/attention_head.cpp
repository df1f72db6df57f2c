// Scaled dot-product attention, softmax(Q K^T / sqrt(d)) V, for 4 heads of 512 tokens
// with a head dimension of 64; Q, K and V are (d, token, head).
#include "corpus_generator.h"

namespace {

using namespace Halide;

class AttentionHead : public Generator<AttentionHead> {
 public:
  Input<Buffer<float>> q{"q", 3};  // (d, query, head)
  Input<Buffer<float>> k{"k", 3};  // (d, key, head)
  Input<Buffer<float>> v{"v", 3};  // (d, key, head)
  Output<Buffer<float>> output{"output", 3};  // (d, query, head)

  void generate() {
    rd = RDom(0, head_dim);
    rj = RDom(0, seq_len);

    // The keys transposed, so that a query's scores against consecutive keys are a
    // contiguous dot product of rows.
    kt(j, d, h) = k(d, j, h);
    dot(j, i, h) = 0.0f;
    dot(j, i, h) += q(rd, i, h) * kt(j, rd, h);
    scores(j, i, h) = dot(j, i, h) * (1.0f / std::sqrt(float(head_dim)));

    row_max(i, h) = maximum(scores(rj, i, h));
    e(j, i, h) = exp(scores(j, i, h) - row_max(i, h));
    row_sum(i, h) = sum(e(rj, i, h));

    // The weighted sum of values, normalized once per row rather than per weight.
    acc(d, i, h) = 0.0f;
    acc(d, i, h) += e(rj, i, h) * v(d, rj, h);
    output(d, i, h) = acc(d, i, h) / row_sum(i, h);

    q.set_estimates({{0, head_dim}, {0, seq_len}, {0, heads}});
    k.set_estimates({{0, head_dim}, {0, seq_len}, {0, heads}});
    v.set_estimates({{0, head_dim}, {0, seq_len}, {0, heads}});
    output.set_estimates({{0, head_dim}, {0, seq_len}, {0, heads}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int vec = natural_vector_size<float>();
    const int rows = 8;
    // Blocks of 8 query rows per task: their scores (a 2-vector by 8-row register tile at a
    // time), softmax weights and row statistics stay in L1 while both products of the block
    // run as register-blocked GEMMs.
    output.split(i, io, ii, rows)
        .split(d, dout, di, 2 * vec)
        .reorder(di, ii, dout, io, h)
        .vectorize(di, vec)
        .unroll(di)
        .unroll(ii)
        .fuse(io, h, ioh)
        .parallel(ioh);
    acc.compute_at(output, dout).vectorize(d, vec).unroll(d).unroll(i);
    acc.update().reorder(d, i, rj).vectorize(d, vec).unroll(d).unroll(i);

    row_sum.compute_at(output, ioh);
    e.compute_at(output, ioh).vectorize(j, vec);
    row_max.compute_at(output, ioh);
    scores.compute_at(output, ioh)
        .split(j, jo, ji, 2 * vec)
        .reorder(ji, i, jo)
        .vectorize(ji, vec)
        .unroll(ji)
        .unroll(i);
    dot.compute_at(scores, jo).vectorize(j, vec).unroll(j).unroll(i);
    dot.update().reorder(j, i, rd).vectorize(j, vec).unroll(j).unroll(i);

    kt.compute_root()
        .split(j, jo, ji, vec)
        .split(d, dout, di, vec)
        .reorder(ji, di, dout, jo, h)
        .vectorize(ji)
        .unroll(di)
        .fuse(jo, h, ioh)
        .parallel(ioh);
  }

 private:
  static constexpr int head_dim = 64, seq_len = 512, heads = 4;
  Var d{"d"}, i{"i"}, j{"j"}, h{"h"}, io{"io"}, ii{"ii"}, dout{"dout"}, di{"di"}, jo{"jo"}, ji{"ji"}, ioh{"ioh"};
  Func kt{"kt"}, dot{"dot"}, scores{"scores"}, row_max{"row_max"}, e{"e"}, row_sum{"row_sum"}, acc{"acc"};
  RDom rd, rj;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(AttentionHead, attention_head, "scaled dot-product attention, 4 heads x 512 tokens x d=64, row softmax, float")
