Func harris_1 = pipeline.get_func(11);
Func sum_yy_1 = pipeline.get_func(10);
Func grad_yy_1 = pipeline.get_func(9);
Func sum_xy_1 = pipeline.get_func(8);
Func grad_xy_1 = pipeline.get_func(7);
Func grad_y_1 = pipeline.get_func(6);
Func sum_xx_1 = pipeline.get_func(5);
Func grad_xx_1 = pipeline.get_func(4);
Func grad_x_1 = pipeline.get_func(3);
Func gray_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var x(harris_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(harris_1.get_schedule().dims()[1].var);
Var yi("yi");
harris_1
    .split(y, y, yi, 8, TailStrategy::ShiftInwards)
    .split(x, x, xi, 128, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .unroll(xi)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yi, x, y})
    .parallel(y);
sum_yy_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(harris_1, xi)
    .reorder({xi, x, y});
grad_yy_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(harris_1, x)
    .reorder({xi, x, y});
sum_xy_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(harris_1, xi)
    .reorder({xi, x, y});
grad_xy_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(harris_1, xi)
    .reorder({xi, x, y});
grad_y_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(harris_1, x)
    .reorder({xi, x, y});
sum_xx_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(harris_1, yi)
    .reorder({xi, x, y});
grad_xx_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(harris_1, yi)
    .store_at(harris_1, x)
    .reorder({xi, x, y});
grad_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(harris_1, yi)
    .store_at(harris_1, x)
    .reorder({xi, x, y});
gray_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(harris_1, x)
    .reorder({xi, x, y});
