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
Var y(stage_4_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
stage_4_1
    .split(y, y, yi, 32, TailStrategy::ShiftInwards)
    .split(x, x, xi, 96, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 16, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 32, TailStrategy::ShiftInwards)
    .unroll(xi)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yii, yi, x, y})
    .parallel(y);
stage_3_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(stage_4_1, yii)
    .store_at(stage_4_1, yi)
    .reorder({xi, x, y});
stage_2_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(stage_4_1, yii)
    .store_at(stage_4_1, yi)
    .reorder({xi, x, y});
stage_1_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .split(y, y, yi, 19, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(stage_4_1, x)
    .reorder({xi, yi, x, y});
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 32, TailStrategy::GuardWithIf)
    .vectorize(d0i)
    .compute_at(stage_1_1, x)
    .reorder({d0i, d0, d1});
