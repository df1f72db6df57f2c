Func blur_y_1 = pipeline.get_func(3);
Func blur_x_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var x(blur_y_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(blur_y_1.get_schedule().dims()[1].var);
Var yi("yi");
blur_y_1
    .split(y, y, yi, 12, TailStrategy::ShiftInwards)
    .split(x, x, xi, 768, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 32, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yi, x, y})
    .parallel(y);
blur_x_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 128, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 32, TailStrategy::ShiftInwards)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(blur_y_1, x)
    .store_at(blur_y_1, y)
    .reorder({xii, xi, x, y});
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 32, TailStrategy::ShiftInwards)
    .unroll(d0)
    .vectorize(d0i)
    .compute_at(blur_x_1, x)
    .reorder({d0i, d0, d1});
