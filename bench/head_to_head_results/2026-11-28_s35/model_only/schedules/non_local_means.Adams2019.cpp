Func non_local_means_1 = pipeline.get_func(7);
Func weighted_sum_1 = pipeline.get_func(6);
Func weight_1 = pipeline.get_func(5);
Func patch_dist_1 = pipeline.get_func(4);
Func patch_blur_y_1 = pipeline.get_func(3);
Func patch_diff_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var c(non_local_means_1.get_schedule().dims()[2].var);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var d1i("d1i");
Var d2(input_clamped_1.get_schedule().dims()[2].var);
Var dx(weight_1.get_schedule().dims()[2].var);
Var dy(weight_1.get_schedule().dims()[3].var);
Var x(non_local_means_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(non_local_means_1.get_schedule().dims()[1].var);
Var yi("yi");
RVar s_x(weighted_sum_1.update(0).get_schedule().dims()[0].var);
RVar s_y(weighted_sum_1.update(0).get_schedule().dims()[1].var);
non_local_means_1
    .split(x, x, xi, 48, TailStrategy::ShiftInwards)
    .split(y, y, yi, 6, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 8, TailStrategy::ShiftInwards)
    .vectorize(xiii)
    .compute_root()
    .reorder({xiii, xii, yi, c, xi, x, y})
    .fuse(x, y, x)
    .parallel(x);
weighted_sum_1
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 8, TailStrategy::RoundUp)
    .vectorize(yi)
    .compute_at(non_local_means_1, xi)
    .reorder({yi, y, x, c})
    .reorder_storage(y, x, c);
weighted_sum_1.update(0)
    .split(y, y, yi, 8, TailStrategy::GuardWithIf)
    .vectorize(yi)
    .reorder({yi, y, x, c, s_x, s_y});
weight_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 4, TailStrategy::RoundUp)
    .split(y, y, yi, 8, TailStrategy::RoundUp)
    .unroll(xi)
    .vectorize(yi)
    .compute_at(weighted_sum_1, s_x)
    .reorder({yi, y, xi, x, dx, dy})
    .reorder_storage(y, x, dx, dy);
patch_dist_1
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(yi)
    .compute_at(weight_1, x)
    .reorder({yi, y, x, dx, dy})
    .reorder_storage(y, x, dx, dy);
patch_blur_y_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 4, TailStrategy::RoundUp)
    .split(y, y, yi, 8, TailStrategy::RoundUp)
    .unroll(xi)
    .vectorize(yi)
    .compute_at(weighted_sum_1, s_x)
    .store_at(weighted_sum_1, s_y)
    .reorder({yi, y, xi, x, dx, dy})
    .reorder_storage(y, x, dx, dy);
patch_diff_1
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 8, TailStrategy::RoundUp)
    .unroll(y)
    .unroll(x)
    .vectorize(yi)
    .compute_at(patch_blur_y_1, x)
    .reorder({yi, y, x, dx, dy})
    .reorder_storage(y, x, dx, dy);
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d1, d1, d1i, 8, TailStrategy::ShiftInwards)
    .vectorize(d1i)
    .compute_at(weighted_sum_1, s_y)
    .store_at(non_local_means_1, xi)
    .reorder({d1i, d1, d0, d2})
    .reorder_storage(d1, d0, d2);
