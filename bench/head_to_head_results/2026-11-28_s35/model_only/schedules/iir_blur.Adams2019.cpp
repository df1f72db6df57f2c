Func iir_blur_1 = pipeline.get_func(3);
Func blur_y_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var x(iir_blur_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(iir_blur_1.get_schedule().dims()[1].var);
Var yi("yi");
RVar rx_x(iir_blur_1.update(0).get_schedule().dims()[0].var);
RVar ry_x(blur_y_1.update(0).get_schedule().dims()[0].var);
iir_blur_1
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .split(y, y, yi, 16, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 8, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yi, y, x})
    .parallel(x);
iir_blur_1.update(0)
    .split(y, y, yi, 16, TailStrategy::GuardWithIf)
    .reorder({rx_x, yi, y})
    .parallel(y);
iir_blur_1.update(1)
    .split(y, y, yi, 16, TailStrategy::GuardWithIf)
    .reorder({rx_x, yi, y})
    .parallel(y);
blur_y_1
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .unroll(x)
    .vectorize(xi)
    .compute_at(iir_blur_1, x)
    .reorder({xi, x, y});
blur_y_1.update(0)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .reorder({xi, x, ry_x});
blur_y_1.update(1)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .reorder({xi, x, ry_x});
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 8, TailStrategy::ShiftInwards)
    .unroll(d0)
    .vectorize(d0i)
    .compute_at(blur_y_1, y)
    .reorder({d0i, d0, d1});
