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
Var ki("ki");
Var x(local_laplacian_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(local_laplacian_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
RVar gpyr_1_tap_x(gpyr_1_1.update(0).get_schedule().dims()[0].var);
RVar gpyr_1_up_tap_x(gpyr_1_up_1.update(0).get_schedule().dims()[0].var);
RVar in_gpyr_1_tap_x(in_gpyr_1_1.update(0).get_schedule().dims()[0].var);
RVar out_gpyr_1_up_tap_x(out_gpyr_1_up_1.update(0).get_schedule().dims()[0].var);
local_laplacian_1
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .split(y, y, yi, 6, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 8, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 2, TailStrategy::ShiftInwards)
    .unroll(yii)
    .vectorize(xiii)
    .compute_root()
    .reorder({xiii, yii, yi, xii, xi, x, y})
    .fuse(x, y, x)
    .parallel(x);
out_lpyr_0_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yii)
    .reorder({xi, x, y});
gpyr_1_up_1
    .store_in(MemoryType::Stack)
    .split(k, k, ki, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(ki)
    .compute_at(local_laplacian_1, yii)
    .reorder({ki, k, x, y})
    .reorder_storage(k, x, y);
gpyr_1_up_1.update(0)
    .split(k, k, ki, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(ki)
    .reorder({ki, k, x, y, gpyr_1_up_tap_x});
gpyr_1_up_x_1
    .store_in(MemoryType::Stack)
    .split(k, k, ki, 8, TailStrategy::RoundUp)
    .vectorize(ki)
    .compute_at(local_laplacian_1, xii)
    .reorder({ki, k, x, y})
    .reorder_storage(k, x, y);
gpyr_1_up_x_1.update(0)
    .split(k, k, ki, 8, TailStrategy::RoundUp)
    .vectorize(ki)
    .reorder({ki, gpyr_1_up_tap_x, k, x, y});
out_gpyr_1_up_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(local_laplacian_1, yi)
    .reorder({xi, x, y});
out_gpyr_1_up_1.update(0)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .reorder({xi, x, y, out_gpyr_1_up_tap_x});
out_gpyr_1_up_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, xii)
    .reorder({xi, x, y});
out_gpyr_1_up_x_1.update(0)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, out_gpyr_1_up_tap_x, x, y});
in_gpyr_1_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(local_laplacian_1, xi)
    .reorder({xi, x, y});
in_gpyr_1_1.update(0)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, x, in_gpyr_1_tap_x, y});
in_gpyr_1_down_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(in_gpyr_1_1, in_gpyr_1_tap_x)
    .reorder({xi, x, y});
in_gpyr_1_down_x_1.update(0)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, in_gpyr_1_tap_x, x, y});
gpyr_1_1
    .store_in(MemoryType::Stack)
    .split(k, k, ki, 8, TailStrategy::RoundUp)
    .vectorize(ki)
    .compute_at(local_laplacian_1, xi)
    .reorder({ki, k, x, y})
    .reorder_storage(k, x, y);
gpyr_1_1.update(0)
    .split(k, k, ki, 8, TailStrategy::RoundUp)
    .vectorize(ki)
    .reorder({ki, gpyr_1_tap_x, k, y, x});
gpyr_1_down_x_1
    .store_in(MemoryType::Stack)
    .split(k, k, ki, 8, TailStrategy::RoundUp)
    .vectorize(ki)
    .compute_at(gpyr_1_1, x)
    .reorder({ki, k, x, y})
    .reorder_storage(k, x, y);
gpyr_1_down_x_1.update(0)
    .split(k, k, ki, 8, TailStrategy::RoundUp)
    .vectorize(ki)
    .reorder({ki, gpyr_1_tap_x, k, x, y});
remap_1
    .split(i, i, ii, 8, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_root()
    .reorder({ii, i})
    .parallel(i);
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 8, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(local_laplacian_1, xi)
    .reorder({d0i, d0, d1});
