Func pointwise_relu_1 = pipeline.get_func(9);
Func pointwise_1 = pipeline.get_func(8);
Func depthwise_relu_1 = pipeline.get_func(5);
Func depthwise_1 = pipeline.get_func(4);
Func input_padded_1 = pipeline.get_func(3);
Var c(pointwise_relu_1.get_schedule().dims()[0].var);
Var ci("ci");
Var cii("cii");
Var d0(input_padded_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_padded_1.get_schedule().dims()[1].var);
Var d2(input_padded_1.get_schedule().dims()[2].var);
Var x(pointwise_relu_1.get_schedule().dims()[1].var);
Var xi("xi");
Var xii("xii");
Var y(pointwise_relu_1.get_schedule().dims()[2].var);
Var yi("yi");
Var yii("yii");
RVar ci_x(pointwise_1.update(0).get_schedule().dims()[0].var);
RVar k_x(depthwise_1.update(0).get_schedule().dims()[0].var);
RVar k_y(depthwise_1.update(0).get_schedule().dims()[1].var);
pointwise_relu_1
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .split(y, y, yi, 32, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 16, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 2, TailStrategy::ShiftInwards)
    .split(c, c, ci, 24, TailStrategy::ShiftInwards)
    .split(ci, ci, cii, 8, TailStrategy::ShiftInwards)
    .unroll(ci)
    .unroll(xii)
    .vectorize(cii)
    .compute_root()
    .reorder({cii, ci, xii, c, xi, yii, yi, x, y})
    .fuse(x, y, x)
    .parallel(x);
pointwise_1
    .store_in(MemoryType::Stack)
    .split(c, c, ci, 8, TailStrategy::ShiftInwards)
    .unroll(c)
    .unroll(x)
    .vectorize(ci)
    .compute_at(pointwise_relu_1, c)
    .reorder({ci, c, x, y});
pointwise_1.update(0)
    .split(c, c, ci, 8, TailStrategy::GuardWithIf)
    .unroll(c)
    .unroll(x)
    .vectorize(ci)
    .reorder({ci, c, x, y, ci_x});
depthwise_relu_1
    .store_in(MemoryType::Stack)
    .split(c, c, ci, 8, TailStrategy::RoundUp)
    .unroll(c)
    .unroll(x)
    .vectorize(ci)
    .compute_at(pointwise_relu_1, xi)
    .reorder({ci, c, x, y});
depthwise_1
    .store_in(MemoryType::Stack)
    .split(c, c, ci, 8, TailStrategy::ShiftInwards)
    .unroll(c)
    .unroll(x)
    .vectorize(ci)
    .compute_at(pointwise_relu_1, xi)
    .reorder({ci, c, x, y});
depthwise_1.update(0)
    .split(c, c, ci, 8, TailStrategy::GuardWithIf)
    .unroll(c)
    .unroll(x)
    .vectorize(ci)
    .reorder({ci, c, x, y, k_x, k_y});
input_padded_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 8, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(pointwise_relu_1, xi)
    .store_at(pointwise_relu_1, yi)
    .reorder({d0i, d0, d1, d2});
