Var i_vi("i_vi");
Var i_vo("i_vo");
Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func b_b_1 = pipeline.get_func(3);
Func b_gb_1 = pipeline.get_func(7);
Func b_gr_1 = pipeline.get_func(8);
Func b_r_1 = pipeline.get_func(10);
Func camera_pipe_1 = pipeline.get_func(20);
Func curved_1 = pipeline.get_func(18);
Func g_b_1 = pipeline.get_func(6);
Func g_gb_1 = pipeline.get_func(4);
Func g_gr_1 = pipeline.get_func(5);
Func g_r_1 = pipeline.get_func(9);
Func r_b_1 = pipeline.get_func(12);
Func r_gb_1 = pipeline.get_func(13);
Func r_gr_1 = pipeline.get_func(14);
Func r_r_1 = pipeline.get_func(11);
Func tone_curve_1 = pipeline.get_func(17);

{
    Var x = b_b_1.args()[0];
    Var y = b_b_1.args()[1];
    b_b_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = b_gb_1.args()[0];
    Var y = b_gb_1.args()[1];
    b_gb_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = b_gr_1.args()[0];
    Var y = b_gr_1.args()[1];
    b_gr_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = b_r_1.args()[0];
    Var y = b_r_1.args()[1];
    b_r_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = camera_pipe_1.args()[0];
    Var y = camera_pipe_1.args()[1];
    Var c = camera_pipe_1.args()[2];
    camera_pipe_1
        .compute_root()
        .split(x, x_o, x_i, 256)
        .split(y, y_o, y_i, 256)
        .reorder(x_i, y_i, x_o, y_o, c)
        .split(x_i, x_i_vo, x_i_vi, 32)
        .vectorize(x_i_vi)
        .parallel(c);
}
{
    Var x = curved_1.args()[0];
    curved_1
        .compute_at(camera_pipe_1, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = g_b_1.args()[0];
    Var y = g_b_1.args()[1];
    g_b_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = g_gb_1.args()[0];
    Var y = g_gb_1.args()[1];
    g_gb_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = g_gr_1.args()[0];
    Var y = g_gr_1.args()[1];
    g_gr_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = g_r_1.args()[0];
    Var y = g_r_1.args()[1];
    g_r_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = r_b_1.args()[0];
    Var y = r_b_1.args()[1];
    r_b_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = r_gb_1.args()[0];
    Var y = r_gb_1.args()[1];
    r_gb_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = r_gr_1.args()[0];
    Var y = r_gr_1.args()[1];
    r_gr_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = r_r_1.args()[0];
    Var y = r_r_1.args()[1];
    r_r_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var i = tone_curve_1.args()[0];
    tone_curve_1
        .compute_root()
        .split(i, i_vo, i_vi, 32)
        .vectorize(i_vi)
        .parallel(i_vo);
}

