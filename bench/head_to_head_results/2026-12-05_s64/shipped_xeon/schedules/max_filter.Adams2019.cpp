Func max_filter_1 = pipeline.get_func(5);
Func vert_max_3_1 = pipeline.get_func(4);
Func vert_max_2_1 = pipeline.get_func(3);
Func vert_max_1_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var x(max_filter_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(max_filter_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
max_filter_1
    .split(y, y, yi, 64, TailStrategy::ShiftInwards)
    .split(x, x, xi, 96, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 32, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 16, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 48, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 16, TailStrategy::ShiftInwards)
    .vectorize(xiii)
    .compute_root()
    .reorder({xiii, xii, yiii, xi, yii, x, yi, y})
    .parallel(y);
vert_max_3_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(max_filter_1, xi)
    .reorder({xi, x, y});
vert_max_2_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .split(y, y, yi, 4, TailStrategy::RoundUp)
    .split(xi, xi, xii, 16, TailStrategy::RoundUp)
    .unroll(xi)
    .unroll(yi)
    .vectorize(xii)
    .compute_at(max_filter_1, xi)
    .store_at(max_filter_1, yii)
    .reorder({xii, xi, yi, x, y});
vert_max_1_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(vert_max_2_1, x)
    .reorder({xi, x, y});
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(max_filter_1, yii)
    .store_at(max_filter_1, x)
    .reorder({d0i, d0, d1});
