Func local_laplacian_1 = pipeline.get_func(15);
Func out_lpyr_0_1 = pipeline.get_func(14);
Func lpyr_0_1 = pipeline.get_func(13);
Func gpyr_1_up_1 = pipeline.get_func(12);
Func gpyr_1_up_x_1 = pipeline.get_func(11);
Func out_gpyr_1_up_1 = pipeline.get_func(10);
Func out_gpyr_1_up_x_1 = pipeline.get_func(9);
Func out_lpyr_1_1 = pipeline.get_func(8);
Func in_gpyr_1_1 = pipeline.get_func(7);
Func in_gpyr_1_down_x_1 = pipeline.get_func(6);
Func gpyr_1_1 = pipeline.get_func(5);
Func gpyr_1_down_x_1 = pipeline.get_func(4);
Func processed_1 = pipeline.get_func(3);
Func remap_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var i(remap_1.get_schedule().dims()[0].var);
Var ii("ii");
Var k(gpyr_1_up_1.get_schedule().dims()[2].var);
Var x(local_laplacian_1.get_schedule().dims()[0].var);
Var xi("xi");
Var y(local_laplacian_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
RVar gpyr_1_tap_x(gpyr_1_1.update(0).get_schedule().dims()[0].var);
RVar gpyr_1_up_tap_x(gpyr_1_up_1.update(0).get_schedule().dims()[0].var);
RVar in_gpyr_1_tap_x(in_gpyr_1_1.update(0).get_schedule().dims()[0].var);
RVar out_gpyr_1_up_tap_x(out_gpyr_1_up_1.update(0).get_schedule().dims()[0].var);
local_laplacian_1
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .split(y, y, yi, 12, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 6, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 2, TailStrategy::ShiftInwards)
    .unroll(yiii)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, yiii, yii, yi, x, y})
    .fuse(x, y, x)
    .parallel(x);
out_lpyr_0_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yiii)
    .store_at(local_laplacian_1, yii)
    .reorder({xi, x, y});
gpyr_1_up_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(k)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yiii)
    .reorder({xi, x, y, k});
gpyr_1_up_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(k)
    .vectorize(xi)
    .reorder({xi, x, y, k, gpyr_1_up_tap_x});
gpyr_1_up_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yi)
    .reorder({xi, x, y, k});
gpyr_1_up_x_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, gpyr_1_up_tap_x, x, y, k});
out_gpyr_1_up_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yiii)
    .reorder({xi, x, y});
out_gpyr_1_up_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, x, y, out_gpyr_1_up_tap_x});
out_gpyr_1_up_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yi)
    .reorder({xi, x, y});
out_gpyr_1_up_x_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, out_gpyr_1_up_tap_x, x, y});
out_lpyr_1_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yi)
    .store_at(local_laplacian_1, x)
    .reorder({xi, x, y});
in_gpyr_1_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(out_lpyr_1_1, x)
    .reorder({xi, x, y});
in_gpyr_1_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, x, y, in_gpyr_1_tap_x});
in_gpyr_1_down_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yi)
    .reorder({xi, x, y});
in_gpyr_1_down_x_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, in_gpyr_1_tap_x, x, y});
gpyr_1_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yi)
    .reorder({xi, x, y, k});
gpyr_1_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, gpyr_1_tap_x, x, y, k});
gpyr_1_down_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(gpyr_1_1, k)
    .reorder({xi, x, y, k});
gpyr_1_down_x_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, gpyr_1_tap_x, x, y, k});
remap_1
    .split(i, i, ii, 16, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_root()
    .reorder({ii, i})
    .parallel(i);
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(local_laplacian_1, yi)
    .store_at(local_laplacian_1, x)
    .reorder({d0i, d0, d1});
