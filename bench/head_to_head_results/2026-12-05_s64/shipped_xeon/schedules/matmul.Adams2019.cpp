Func matmul_1 = pipeline.get_func(3);
Func dot_1 = pipeline.get_func(2);
Var x(matmul_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(matmul_1.get_schedule().dims()[1].var);
Var yi("yi");
RVar k_x(dot_1.update(0).get_schedule().dims()[0].var);
matmul_1
    .split(x, x, xi, 128, TailStrategy::ShiftInwards)
    .split(y, y, yi, 8, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .unroll(yi)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, yi, xi, x, y})
    .fuse(x, y, x)
    .parallel(x);
dot_1.update(0)
    .split(x, x, xi, 16, TailStrategy::GuardWithIf)
    .unroll(y)
    .vectorize(xi)
    .reorder({xi, x, y, k_x});
dot_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(matmul_1, xi)
    .reorder({xi, x, y});
