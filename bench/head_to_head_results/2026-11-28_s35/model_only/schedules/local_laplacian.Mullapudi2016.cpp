Var d0_vi("d0_vi");
Var d0_vo("d0_vo");
Var i_vi("i_vi");
Var i_vo("i_vo");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func gpyr_1_1 = pipeline.get_func(5);
Func gpyr_1_down_x_1 = pipeline.get_func(4);
Func gpyr_1_up_1 = pipeline.get_func(12);
Func gpyr_1_up_x_1 = pipeline.get_func(11);
Func in_gpyr_1_1 = pipeline.get_func(7);
Func in_gpyr_1_down_x_1 = pipeline.get_func(6);
Func input_clamped_1 = pipeline.get_func(1);
Func local_laplacian_1 = pipeline.get_func(15);
Func out_gpyr_1_up_1 = pipeline.get_func(10);
Func out_gpyr_1_up_x_1 = pipeline.get_func(9);
Func out_lpyr_1_1 = pipeline.get_func(8);
Func processed_1 = pipeline.get_func(3);
Func remap_1 = pipeline.get_func(2);

{
    Var x = gpyr_1_1.args()[0];
    Var k = gpyr_1_1.args()[2];
    RVar gpyr_1_tap$x(gpyr_1_1.update(0).get_schedule().rvars()[0].var);
    gpyr_1_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(k);
    gpyr_1_1.update(0)
        .reorder(x, gpyr_1_tap$x, y, k)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = gpyr_1_down_x_1.args()[0];
    Var k = gpyr_1_down_x_1.args()[2];
    gpyr_1_down_x_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(k);
    gpyr_1_down_x_1.update(0)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = gpyr_1_up_1.args()[0];
    Var k = gpyr_1_up_1.args()[2];
    RVar gpyr_1_up_tap$x(gpyr_1_up_1.update(0).get_schedule().rvars()[0].var);
    gpyr_1_up_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(k);
    gpyr_1_up_1.update(0)
        .reorder(x, gpyr_1_up_tap$x, y, k)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = gpyr_1_up_x_1.args()[0];
    Var k = gpyr_1_up_x_1.args()[2];
    gpyr_1_up_x_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(k);
    gpyr_1_up_x_1.update(0)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = in_gpyr_1_1.args()[0];
    Var y = in_gpyr_1_1.args()[1];
    RVar in_gpyr_1_tap$x(in_gpyr_1_1.update(0).get_schedule().rvars()[0].var);
    in_gpyr_1_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
    in_gpyr_1_1.update(0)
        .reorder(x, in_gpyr_1_tap$x, y)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_gpyr_1_down_x_1.args()[0];
    Var y = in_gpyr_1_down_x_1.args()[1];
    in_gpyr_1_down_x_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
    in_gpyr_1_down_x_1.update(0)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var d0 = input_clamped_1.args()[0];
    Var d1 = input_clamped_1.args()[1];
    input_clamped_1
        .compute_root()
        .split(d0, d0_vo, d0_vi, 8)
        .vectorize(d0_vi)
        .parallel(d1);
}
{
    Var x = local_laplacian_1.args()[0];
    Var y = local_laplacian_1.args()[1];
    local_laplacian_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = out_gpyr_1_up_1.args()[0];
    Var y = out_gpyr_1_up_1.args()[1];
    RVar out_gpyr_1_up_tap$x(out_gpyr_1_up_1.update(0).get_schedule().rvars()[0].var);
    out_gpyr_1_up_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
    out_gpyr_1_up_1.update(0)
        .reorder(x, out_gpyr_1_up_tap$x, y)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = out_gpyr_1_up_x_1.args()[0];
    Var y = out_gpyr_1_up_x_1.args()[1];
    out_gpyr_1_up_x_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
    out_gpyr_1_up_x_1.update(0)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = out_lpyr_1_1.args()[0];
    Var y = out_lpyr_1_1.args()[1];
    out_lpyr_1_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = processed_1.args()[0];
    Var k = processed_1.args()[2];
    processed_1
        .compute_root()
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var i = remap_1.args()[0];
    remap_1
        .compute_root()
        .split(i, i_vo, i_vi, 8)
        .vectorize(i_vi)
        .parallel(i_vo);
}

