Func camera_pipe_1 = pipeline.get_func(20);
Func sharpen_blur_1 = pipeline.get_func(19);
Func curved_1 = pipeline.get_func(18);
Func tone_curve_1 = pipeline.get_func(17);
Func color_corrected_1 = pipeline.get_func(16);
Func demosaic_1 = pipeline.get_func(15);
Func r_gr_1 = pipeline.get_func(14);
Func r_gb_1 = pipeline.get_func(13);
Func r_b_1 = pipeline.get_func(12);
Func r_r_1 = pipeline.get_func(11);
Func b_r_1 = pipeline.get_func(10);
Func g_r_1 = pipeline.get_func(9);
Func b_gr_1 = pipeline.get_func(8);
Func b_gb_1 = pipeline.get_func(7);
Func g_b_1 = pipeline.get_func(6);
Func g_gr_1 = pipeline.get_func(5);
Func g_gb_1 = pipeline.get_func(4);
Func b_b_1 = pipeline.get_func(3);
Func denoised_1 = pipeline.get_func(2);
Func raw_clamped_1 = pipeline.get_func(1);
Var c(camera_pipe_1.get_schedule().dims()[2].var);
Var i(tone_curve_1.get_schedule().dims()[0].var);
Var ii("ii");
Var x(camera_pipe_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(camera_pipe_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
camera_pipe_1
    .split(x, x, xi, 256, TailStrategy::ShiftInwards)
    .split(y, y, yi, 16, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 128, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 64, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 8, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 4, TailStrategy::ShiftInwards)
    .unroll(yiii)
    .vectorize(xiii)
    .compute_root()
    .reorder({xiii, yiii, yii, yi, c, xii, xi, x, y})
    .fuse(x, y, x)
    .parallel(x);
sharpen_blur_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(camera_pipe_1, yii)
    .reorder({xi, x, y, c});
curved_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 64, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(camera_pipe_1, yii)
    .store_at(camera_pipe_1, yi)
    .reorder({xi, x, y, c});
tone_curve_1
    .split(i, i, ii, 64, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_root()
    .reorder({ii, i})
    .parallel(i);
color_corrected_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, c)
    .reorder({xi, x, y, c});
r_gr_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xii)
    .reorder({xi, x, y});
r_gb_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xii)
    .reorder({xi, x, y});
r_b_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xii)
    .reorder({xi, x, y});
r_r_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xii)
    .reorder({xi, x, y});
b_r_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xii)
    .store_at(camera_pipe_1, xi)
    .reorder({xi, x, y});
g_r_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xi)
    .reorder({xi, x, y});
b_gr_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xii)
    .reorder({xi, x, y});
b_gb_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xii)
    .reorder({xi, x, y});
g_b_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xi)
    .reorder({xi, x, y});
g_gr_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xi)
    .reorder({xi, x, y});
g_gb_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xi)
    .reorder({xi, x, y});
b_b_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xii)
    .reorder({xi, x, y});
denoised_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(camera_pipe_1, xi)
    .reorder({xi, y, x});
raw_clamped_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(denoised_1, x)
    .reorder({xi, x, y});
