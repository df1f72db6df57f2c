Var d0_vi("d0_vi");
Var d0_vo("d0_vo");
Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func bokeh_sum_1 = pipeline.get_func(6);
Func circle_of_confusion_1 = pipeline.get_func(2);
Func highlight_gain_1 = pipeline.get_func(5);
Func input_clamped_1 = pipeline.get_func(4);
Func lens_blur_1 = pipeline.get_func(7);

{
    Var x = bokeh_sum_1.args()[0];
    RVar r$x(bokeh_sum_1.update(0).get_schedule().rvars()[0].var);
    RVar r$y(bokeh_sum_1.update(0).get_schedule().rvars()[1].var);
    bokeh_sum_1
        .compute_at(lens_blur_1, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
    bokeh_sum_1.update(0)
        .reorder(r$x, x, r$y, y, c)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
}
{
    Var x = circle_of_confusion_1.args()[0];
    Var y = circle_of_confusion_1.args()[1];
    circle_of_confusion_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = highlight_gain_1.args()[0];
    Var y = highlight_gain_1.args()[1];
    highlight_gain_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var d0 = input_clamped_1.args()[0];
    Var d2 = input_clamped_1.args()[2];
    input_clamped_1
        .compute_root()
        .split(d0, d0_vo, d0_vi, 8)
        .vectorize(d0_vi)
        .parallel(d2);
}
{
    Var x = lens_blur_1.args()[0];
    Var y = lens_blur_1.args()[1];
    Var c = lens_blur_1.args()[2];
    lens_blur_1
        .compute_root()
        .split(x, x_o, x_i, 64)
        .split(y, y_o, y_i, 4)
        .reorder(x_i, y_i, c, x_o, y_o)
        .split(x_i, x_i_vo, x_i_vi, 8)
        .vectorize(x_i_vi)
        .parallel(y_o);
}

