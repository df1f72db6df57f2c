Func max_filter_1 = pipeline.get_func(5);
Func vert_max_3_1 = pipeline.get_func(4);
Func vert_max_2_1 = pipeline.get_func(3);
Func vert_max_1_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var d1i("d1i");
Var x(max_filter_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(max_filter_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
max_filter_1
    .split(y, y, yi, 64, TailStrategy::ShiftInwards)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 16, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 8, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 8, TailStrategy::ShiftInwards)
    .unroll(yiii)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, yiii, xi, yii, yi, x, y})
    .parallel(y);
vert_max_3_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(max_filter_1, yiii)
    .store_at(max_filter_1, xi)
    .reorder({xi, x, y});
vert_max_2_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .split(y, y, yi, 9, TailStrategy::RoundUp)
    .unroll(yi)
    .vectorize(xi)
    .compute_at(max_filter_1, yii)
    .store_at(max_filter_1, yi)
    .reorder({xi, yi, x, y});
vert_max_1_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(vert_max_2_1, x)
    .reorder({xi, x, y});
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d1, d1, d1i, 8, TailStrategy::ShiftInwards)
    .vectorize(d1i)
    .compute_at(max_filter_1, x)
    .reorder({d1i, d1, d0})
    .reorder_storage(d1, d0);
