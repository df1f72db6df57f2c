Func stage_4_1 = pipeline.get_func(5);
Func stage_3_1 = pipeline.get_func(4);
Func stage_2_1 = pipeline.get_func(3);
Func stage_1_1 = pipeline.get_func(2);
Func input_clamped_1 = pipeline.get_func(1);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var x(stage_4_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(stage_4_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
stage_4_1
    .split(x, x, xi, 352, TailStrategy::ShiftInwards)
    .split(y, y, yi, 32, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 128, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 16, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 16, TailStrategy::ShiftInwards)
    .unroll(xii)
    .vectorize(xiii)
    .compute_root()
    .reorder({xiii, xii, yii, yi, xi, x, y})
    .fuse(x, y, x)
    .parallel(x);
stage_3_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(stage_4_1, yii)
    .store_at(stage_4_1, yi)
    .reorder({xi, x, y});
stage_2_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .split(y, y, yi, 4, TailStrategy::RoundUp)
    .split(xi, xi, xii, 16, TailStrategy::RoundUp)
    .unroll(yi)
    .vectorize(xii)
    .compute_at(stage_4_1, yi)
    .store_at(stage_4_1, xi)
    .reorder({xii, yi, xi, x, y});
stage_1_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(stage_2_1, xi)
    .store_at(stage_2_1, x)
    .reorder({xi, x, y});
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(stage_4_1, yi)
    .store_at(stage_4_1, xi)
    .reorder({d0i, d0, d1});
