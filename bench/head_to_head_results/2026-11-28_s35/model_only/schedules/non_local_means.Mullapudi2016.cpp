Var d0_vi("d0_vi");
Var d0_vo("d0_vo");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func input_clamped_1 = pipeline.get_func(1);
Func non_local_means_1 = pipeline.get_func(7);
Func patch_blur_y_1 = pipeline.get_func(3);
Func patch_diff_1 = pipeline.get_func(2);
Func weight_1 = pipeline.get_func(5);
Func weighted_sum_1 = pipeline.get_func(6);

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
    Var x = non_local_means_1.args()[0];
    Var c = non_local_means_1.args()[2];
    non_local_means_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(c);
}
{
    Var x = patch_blur_y_1.args()[0];
    Var dx = patch_blur_y_1.args()[2];
    patch_blur_y_1
        .compute_at(weight_1, dx)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}
{
    Var x = patch_diff_1.args()[0];
    Var dx = patch_diff_1.args()[2];
    patch_diff_1
        .compute_at(weight_1, dx)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}
{
    Var x = weight_1.args()[0];
    Var dy = weight_1.args()[3];
    weight_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(dy);
}
{
    Var x = weighted_sum_1.args()[0];
    Var c = weighted_sum_1.args()[2];
    RVar s$x(weighted_sum_1.update(0).get_schedule().rvars()[0].var);
    RVar s$y(weighted_sum_1.update(0).get_schedule().rvars()[1].var);
    weighted_sum_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(c);
    weighted_sum_1.update(0)
        .reorder(x, y, s$x, c, s$y)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .reorder(s$y, c)
        .parallel(c);
}

