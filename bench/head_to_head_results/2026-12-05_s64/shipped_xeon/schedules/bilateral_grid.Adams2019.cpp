Func bilateral_grid_1 = pipeline.get_func(8);
Func interpolated_1 = pipeline.get_func(7);
Func blur_y_1 = pipeline.get_func(6);
Func blur_x_1 = pipeline.get_func(5);
Func blur_z_1 = pipeline.get_func(4);
Func grid_1 = pipeline.get_func(3);
Func input_clamped_1 = pipeline.get_func(2);
Func input_edge_1 = pipeline.get_func(1);
Var c(interpolated_1.get_schedule().dims()[2].var);
Var d0(input_edge_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_edge_1.get_schedule().dims()[1].var);
Var x(bilateral_grid_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(bilateral_grid_1.get_schedule().dims()[1].var);
Var yi("yi");
Var z(blur_y_1.get_schedule().dims()[2].var);
RVar r_x(grid_1.update(0).get_schedule().dims()[0].var);
RVar r_y(grid_1.update(0).get_schedule().dims()[1].var);
bilateral_grid_1
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .split(y, y, yi, 8, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .unroll(yi)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, yi, xi, x, y})
    .fuse(x, y, x)
    .parallel(x);
interpolated_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(bilateral_grid_1, xi)
    .reorder({xi, x, y, c});
blur_y_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(bilateral_grid_1, xi)
    .store_at(bilateral_grid_1, x)
    .reorder({xi, x, y, z, c});
blur_x_1
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .split(y, y, yi, 5, TailStrategy::RoundUp)
    .unroll(z)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, z, yi, x, y, c})
    .fuse(y, c, y)
    .fuse(x, y, x)
    .parallel(x);
blur_z_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(blur_x_1, z)
    .reorder({xi, x, y, z, c});
grid_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(blur_x_1, yi)
    .reorder({xi, x, y, z, c});
grid_1.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .reorder({xi, x, y, c, r_x, r_y});
input_clamped_1
    .split(y, y, yi, 10, TailStrategy::ShiftInwards)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, y})
    .parallel(y);
input_edge_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(input_clamped_1, x)
    .reorder({d0i, d0, d1});
