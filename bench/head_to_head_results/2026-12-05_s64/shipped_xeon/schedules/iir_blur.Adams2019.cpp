Func iir_blur_1 = pipeline.get_func(3);
Func blur_y_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var x(iir_blur_1.get_schedule().dims()[0].var);
Var xi("xi");
Var y(iir_blur_1.get_schedule().dims()[1].var);
Var yi("yi");
RVar rx_x(iir_blur_1.update(0).get_schedule().dims()[0].var);
RVar ry_x(blur_y_1.update(0).get_schedule().dims()[0].var);
iir_blur_1
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .split(y, y, yi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, yi, y, x})
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
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(iir_blur_1, x)
    .reorder({xi, x, y});
blur_y_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, x, ry_x});
blur_y_1.update(1)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, x, ry_x});
