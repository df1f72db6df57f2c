Func hist_eq_1 = pipeline.get_func(4);
Func equalize_lut_1 = pipeline.get_func(3);
Func cumulative_histogram_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var i(equalize_lut_1.get_schedule().dims()[0].var);
Var ii("ii");
Var x(hist_eq_1.get_schedule().dims()[0].var);
Var xi("xi");
Var y(hist_eq_1.get_schedule().dims()[1].var);
Var yi("yi");
RVar bin_x(cumulative_histogram_1.update(1).get_schedule().dims()[0].var);
RVar r_x(cumulative_histogram_1.update(0).get_schedule().dims()[0].var);
RVar r_y(cumulative_histogram_1.update(0).get_schedule().dims()[1].var);
hist_eq_1
    .split(y, y, yi, 8, TailStrategy::ShiftInwards)
    .split(x, x, xi, 64, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, y})
    .parallel(y);
equalize_lut_1
    .split(i, i, ii, 64, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_root()
    .reorder({ii, i})
    .parallel(i);
cumulative_histogram_1
    .split(i, i, ii, 16, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_root()
    .reorder({ii, i})
    .parallel(i);
cumulative_histogram_1.update(0)
    .reorder({r_x, r_y});
cumulative_histogram_1.update(1)
    .reorder({bin_x});
