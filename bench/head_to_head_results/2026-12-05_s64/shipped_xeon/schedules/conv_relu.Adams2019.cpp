Func relu_1 = pipeline.get_func(5);
Func conv_1 = pipeline.get_func(4);
Func input_padded_1 = pipeline.get_func(2);
Var c(relu_1.get_schedule().dims()[0].var);
Var ci("ci");
Var d0(input_padded_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_padded_1.get_schedule().dims()[1].var);
Var d2(input_padded_1.get_schedule().dims()[2].var);
Var d3(input_padded_1.get_schedule().dims()[3].var);
Var n(relu_1.get_schedule().dims()[3].var);
Var x(relu_1.get_schedule().dims()[1].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(relu_1.get_schedule().dims()[2].var);
Var yi("yi");
Var yii("yii");
RVar r_x(conv_1.update(0).get_schedule().dims()[0].var);
RVar r_y(conv_1.update(0).get_schedule().dims()[1].var);
RVar r_z(conv_1.update(0).get_schedule().dims()[2].var);
relu_1
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .split(y, y, yi, 32, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 8, TailStrategy::ShiftInwards)
    .split(c, c, ci, 16, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 4, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 3, TailStrategy::ShiftInwards)
    .unroll(xiii)
    .unroll(yii)
    .vectorize(ci)
    .compute_root()
    .reorder({ci, xiii, yii, c, xii, yi, xi, x, y, n})
    .fuse(y, n, y)
    .fuse(x, y, x)
    .parallel(x);
conv_1.update(0)
    .split(c, c, ci, 16, TailStrategy::GuardWithIf)
    .unroll(x)
    .unroll(y)
    .vectorize(ci)
    .reorder({ci, c, x, y, n, r_x, r_y, r_z});
conv_1
    .store_in(MemoryType::Stack)
    .split(c, c, ci, 16, TailStrategy::ShiftInwards)
    .unroll(x)
    .unroll(y)
    .vectorize(ci)
    .compute_at(relu_1, c)
    .reorder({ci, c, x, y, n});
input_padded_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(relu_1, c)
    .store_at(relu_1, xi)
    .reorder({d0i, d0, d1, d2, d3});
