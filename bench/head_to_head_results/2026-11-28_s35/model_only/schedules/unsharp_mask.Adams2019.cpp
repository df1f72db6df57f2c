Func unsharp_mask_1 = pipeline.get_func(7);
Func ratio_1 = pipeline.get_func(6);
Func sharpen_1 = pipeline.get_func(5);
Func blur_x_1 = pipeline.get_func(4);
Func blur_y_1 = pipeline.get_func(3);
Func gray_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var c(unsharp_mask_1.get_schedule().dims()[2].var);
Var x(unsharp_mask_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(unsharp_mask_1.get_schedule().dims()[1].var);
Var yi("yi");
unsharp_mask_1
    .split(y, y, yi, 8, TailStrategy::ShiftInwards)
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, c, y})
    .parallel(y);
ratio_1
    .split(x, x, xi, 64, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 8, TailStrategy::ShiftInwards)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(unsharp_mask_1, y)
    .reorder({xii, xi, y, x});
blur_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(ratio_1, y)
    .reorder({xi, x, y});
blur_y_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(ratio_1, y)
    .reorder({xi, x, y});
gray_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(ratio_1, x)
    .reorder({xi, x, y});
