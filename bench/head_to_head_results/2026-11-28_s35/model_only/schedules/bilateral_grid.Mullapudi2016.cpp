Var x_vi("x_vi");
Var x_vo("x_vo");

Func bilateral_grid_1 = pipeline.get_func(8);
Func blur_x_1 = pipeline.get_func(5);
Func blur_y_1 = pipeline.get_func(6);
Func blur_z_1 = pipeline.get_func(4);
Func grid_1 = pipeline.get_func(3);
Func input_clamped_1 = pipeline.get_func(2);

{
    Var x = bilateral_grid_1.args()[0];
    Var y = bilateral_grid_1.args()[1];
    bilateral_grid_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = blur_x_1.args()[0];
    Var c = blur_x_1.args()[3];
    blur_x_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(c);
}
{
    Var x = blur_y_1.args()[0];
    Var c = blur_y_1.args()[3];
    blur_y_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(c);
}
{
    Var x = blur_z_1.args()[0];
    Var c = blur_z_1.args()[3];
    blur_z_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(c);
}
{
    Var x = grid_1.args()[0];
    Var c = grid_1.args()[3];
    grid_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(c);
    grid_1.update(0)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(c);
}
{
    Var x = input_clamped_1.args()[0];
    Var y = input_clamped_1.args()[1];
    input_clamped_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
}

