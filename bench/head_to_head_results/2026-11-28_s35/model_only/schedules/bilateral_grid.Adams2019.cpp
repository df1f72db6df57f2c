Func bilateral_grid_1 = pipeline.get_func(8);
Func interpolated_1 = pipeline.get_func(7);
Func blur_y_1 = pipeline.get_func(6);
Func blur_x_1 = pipeline.get_func(5);
Func blur_z_1 = pipeline.get_func(4);
Func grid_1 = pipeline.get_func(3);
Func input_clamped_1 = pipeline.get_func(2);
Func input_edge_1 = pipeline.get_func(1);
Var c(interpolated_1.get_schedule().dims()[2].var);
Var x(bilateral_grid_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(bilateral_grid_1.get_schedule().dims()[1].var);
Var yi("yi");
Var z(blur_y_1.get_schedule().dims()[2].var);
Var zi("zi");
RVar r_x(grid_1.update(0).get_schedule().dims()[0].var);
RVar r_y(grid_1.update(0).get_schedule().dims()[1].var);
bilateral_grid_1
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .split(y, y, yi, 8, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 8, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yi, x, y})
    .fuse(x, y, x)
    .parallel(x);
interpolated_1
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(bilateral_grid_1, x)
    .reorder({xi, x, y, c});
blur_y_1
    .store_in(MemoryType::Stack)
    .split(z, z, zi, 8, TailStrategy::RoundUp)
    .vectorize(zi)
    .compute_at(interpolated_1, c)
    .reorder({zi, z, x, y, c})
    .reorder_storage(z, x, y, c);
blur_x_1
    .split(x, x, xi, 6, TailStrategy::ShiftInwards)
    .split(z, z, zi, 8, TailStrategy::ShiftInwards)
    .unroll(xi)
    .vectorize(zi)
    .compute_root()
    .reorder({zi, xi, z, c, x, y})
    .fuse(x, y, x)
    .parallel(x)
    .reorder_storage(z, x, y, c);
blur_z_1
    .store_in(MemoryType::Stack)
    .split(z, z, zi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(zi)
    .compute_at(blur_x_1, xi)
    .store_at(blur_x_1, z)
    .reorder({zi, z, x, y, c})
    .reorder_storage(z, x, y, c);
grid_1
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(blur_x_1, x)
    .reorder({xi, x, y, z, c});
grid_1.update(0)
    .split(x, x, xi, 8, TailStrategy::GuardWithIf)
    .unroll(c)
    .vectorize(xi)
    .reorder({xi, x, y, c, r_x, r_y});
