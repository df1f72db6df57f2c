Func unsharp_mask_1 = pipeline.get_func(7);
Func ratio_1 = pipeline.get_func(6);
Func sharpen_1 = pipeline.get_func(5);
Func blur_x_1 = pipeline.get_func(4);
Func blur_y_1 = pipeline.get_func(3);
Func gray_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var c(unsharp_mask_1.get_schedule().dims()[2].var);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var d2(input_clamped_1.get_schedule().dims()[2].var);
Var x(unsharp_mask_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(unsharp_mask_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
unsharp_mask_1
    .split(y, y, yi, 16, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 4, TailStrategy::ShiftInwards)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yii, c, yi, y})
    .parallel(y);
ratio_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 256, TailStrategy::RoundUp)
    .split(xi, xi, xii, 128, TailStrategy::RoundUp)
    .split(y, y, yi, 2, TailStrategy::RoundUp)
    .split(xii, xii, xiii, 16, TailStrategy::RoundUp)
    .unroll(xii)
    .vectorize(xiii)
    .compute_at(unsharp_mask_1, yi)
    .reorder({xiii, xii, yi, xi, y, x});
sharpen_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(ratio_1, yi)
    .store_at(ratio_1, xi)
    .reorder({xi, x, y});
blur_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(ratio_1, yi)
    .reorder({xi, x, y});
blur_y_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(ratio_1, yi)
    .reorder({xi, x, y});
gray_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(ratio_1, x)
    .reorder({xi, x, y});
input_clamped_1
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(unsharp_mask_1, yi)
    .store_at(unsharp_mask_1, y)
    .reorder({d0i, d0, d1, d2});
