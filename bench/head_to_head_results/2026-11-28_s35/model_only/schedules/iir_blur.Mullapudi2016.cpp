Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_vi("y_vi");
Var y_vo("y_vo");

Func blur_y_1 = pipeline.get_func(2);
Func iir_blur_1 = pipeline.get_func(3);

{
    Var x = blur_y_1.args()[0];
    Var y = blur_y_1.args()[1];
    RVar ry$x(blur_y_1.update(0).get_schedule().rvars()[0].var);
    blur_y_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
    blur_y_1.update(0)
        .reorder(x, ry$x)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .reorder(ry$x, x_vo)
        .parallel(x_vo);
    blur_y_1.update(1)
        .reorder(x, ry$x)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .reorder(ry$x, x_vo)
        .parallel(x_vo);
}
{
    Var x = iir_blur_1.args()[0];
    Var y = iir_blur_1.args()[1];
    iir_blur_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
    iir_blur_1.update(0)
        .split(y, y_vo, y_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(y_vi)
        .parallel(y_vo);
    iir_blur_1.update(1)
        .split(y, y_vo, y_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(y_vi)
        .parallel(y_vo);
}

