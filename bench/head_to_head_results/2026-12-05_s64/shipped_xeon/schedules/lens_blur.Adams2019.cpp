Func lens_blur_1 = pipeline.get_func(7);
Func bokeh_sum_1 = pipeline.get_func(6);
Func highlight_gain_1 = pipeline.get_func(5);
Func input_clamped_1 = pipeline.get_func(4);
Func circle_of_confusion_1 = pipeline.get_func(2);
Func depth_clamped_1 = pipeline.get_func(1);
Var c(lens_blur_1.get_schedule().dims()[2].var);
Var d0(input_clamped_1.get_schedule().dims()[0].var);
Var d0i("d0i");
Var d1(input_clamped_1.get_schedule().dims()[1].var);
Var d2(input_clamped_1.get_schedule().dims()[2].var);
Var x(lens_blur_1.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(lens_blur_1.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
RVar r_x(bokeh_sum_1.update(0).get_schedule().dims()[0].var);
RVar r_y(bokeh_sum_1.update(0).get_schedule().dims()[1].var);
RVar r_yi("r$yi");
lens_blur_1
    .split(x, x, xi, 128, TailStrategy::ShiftInwards)
    .split(y, y, yi, 16, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 2, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yii, c, yi, x, y})
    .fuse(x, y, x)
    .parallel(x);
bokeh_sum_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(lens_blur_1, yi)
    .reorder({xi, x, y, c});
bokeh_sum_1.update(0)
    .split(r_y, r_y, r_yi, 3, TailStrategy::GuardWithIf)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .reorder({xi, x, r_x, r_yi, y, c, r_y});
highlight_gain_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(bokeh_sum_1, y)
    .store_at(bokeh_sum_1, r_y)
    .reorder({xi, x, y});
input_clamped_1
    .store_in(MemoryType::Stack)
    .split(d0, d0, d0i, 16, TailStrategy::ShiftInwards)
    .vectorize(d0i)
    .compute_at(lens_blur_1, yi)
    .store_at(lens_blur_1, x)
    .reorder({d0i, d0, d1, d2});
circle_of_confusion_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(lens_blur_1, yi)
    .store_at(lens_blur_1, x)
    .reorder({xi, x, y});
