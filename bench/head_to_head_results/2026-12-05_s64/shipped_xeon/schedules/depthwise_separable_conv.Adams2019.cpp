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
Var xiii("xiii");
Var y(pointwise_relu_1.get_schedule().dims()[2].var);
Var yi("yi");
Var yii("yii");
RVar ci_x(pointwise_1.update(0).get_schedule().dims()[0].var);
RVar ci_xi("ci$xi");
RVar k_x(depthwise_1.update(0).get_schedule().dims()[0].var);
RVar k_y(depthwise_1.update(0).get_schedule().dims()[1].var);
pointwise_relu_1
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .split(y, y, yi, 8, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 2, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 2, TailStrategy::ShiftInwards)
    .split(c, c, ci, 32, TailStrategy::ShiftInwards)
    .split(ci, ci, cii, 16, TailStrategy::ShiftInwards)
    .unroll(ci)
    .unroll(xiii)
    .unroll(yii)
    .vectorize(cii)
    .compute_root()
    .reorder({cii, ci, xiii, yii, c, xii, yi, xi, x, y})
    .fuse(x, y, x)
    .parallel(x);
pointwise_1
    .store_in(MemoryType::Stack)
    .split(c, c, ci, 16, TailStrategy::ShiftInwards)
    .unroll(c)
    .unroll(x)
    .unroll(y)
    .vectorize(ci)
    .compute_at(pointwise_relu_1, c)
    .reorder({ci, c, x, y});
pointwise_1.update(0)
    .split(ci_x, ci_x, ci_xi, 16, TailStrategy::GuardWithIf)
    .split(c, c, ci, 16, TailStrategy::GuardWithIf)
    .unroll(c)
    .unroll(x)
    .unroll(y)
    .vectorize(ci)
    .reorder({ci, c, x, y, ci_xi, ci_x});
depthwise_relu_1
    .store_in(MemoryType::Stack)
    .split(c, c, ci, 16, TailStrategy::RoundUp)
    .vectorize(ci)
    .compute_at(pointwise_1, ci_x)
    .reorder({ci, c, x, y});
depthwise_1
    .store_in(MemoryType::Stack)
    .split(c, c, ci, 16, TailStrategy::ShiftInwards)
    .unroll(c)
    .unroll(x)
    .unroll(y)
    .vectorize(ci)
    .compute_at(pointwise_relu_1, xii)
    .reorder({ci, c, x, y});
depthwise_1.update(0)
    .split(c, c, ci, 16, TailStrategy::GuardWithIf)
    .unroll(c)
    .unroll(x)
    .unroll(y)
    .vectorize(ci)
    .reorder({ci, c, x, y, k_x, k_y});
input_padded_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(pointwise_relu_1, xii)
    .store_at(pointwise_relu_1, xi)
    .reorder({d0i, d0, d1, d2});
