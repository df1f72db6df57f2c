Func non_local_means_1 = pipeline.get_func(7);
Func weighted_sum_1 = pipeline.get_func(6);
Func weight_1 = pipeline.get_func(5);
Func patch_dist_1 = pipeline.get_func(4);
Func patch_blur_y_1 = pipeline.get_func(3);
Func patch_diff_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var c(non_local_means_1.get_schedule().dims()[2].var);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var d2(input_clamped_1.get_schedule().dims()[2].var);
Var dx(weight_1.get_schedule().dims()[2].var);
Var dy(weight_1.get_schedule().dims()[3].var);
Var x(non_local_means_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(non_local_means_1.get_schedule().dims()[1].var);
Var yi("yi");
RVar s_x(weighted_sum_1.update(0).get_schedule().dims()[0].var);
RVar s_y(weighted_sum_1.update(0).get_schedule().dims()[1].var);
non_local_means_1
    .split(x, x, xi, 48, TailStrategy::ShiftInwards)
    .split(y, y, yi, 4, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, c, yi, x, y})
    .fuse(x, y, x)
    .parallel(x);
weighted_sum_1
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(non_local_means_1, x)
    .reorder({xi, x, y, c});
weighted_sum_1.update(0)
    .split(x, x, xi, 16, TailStrategy::GuardWithIf)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .reorder({xi, x, y, c, s_x, s_y});
weight_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(weighted_sum_1, c)
    .store_at(weighted_sum_1, s_x)
    .reorder({xi, x, y, dx, dy});
patch_dist_1
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 2, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(yi)
    .vectorize(xi)
    .compute_at(weighted_sum_1, s_x)
    .store_at(weighted_sum_1, s_y)
    .reorder({xi, x, yi, y, dx, dy});
patch_blur_y_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(patch_dist_1, y)
    .reorder({xi, x, y, dx, dy});
patch_diff_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(patch_dist_1, y)
    .store_at(weighted_sum_1, s_x)
    .reorder({xi, x, y, dx, dy});
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(weighted_sum_1, s_y)
    .store_at(non_local_means_1, x)
    .reorder({d0i, d0, d1, d2});
