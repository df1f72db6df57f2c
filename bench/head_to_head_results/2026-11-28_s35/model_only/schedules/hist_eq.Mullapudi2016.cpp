Var d0_vi("d0_vi");
Var d0_vo("d0_vo");
Var i_vi("i_vi");
Var i_vo("i_vo");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func cumulative_histogram_1 = pipeline.get_func(2);
Func equalize_lut_1 = pipeline.get_func(3);
Func hist_eq_1 = pipeline.get_func(4);
Func input_clamped_1 = pipeline.get_func(1);

{
    Var i = cumulative_histogram_1.args()[0];
    cumulative_histogram_1
        .compute_root()
        .split(i, i_vo, i_vi, 8)
        .vectorize(i_vi)
        .parallel(i_vo);
}
{
    Var i = equalize_lut_1.args()[0];
    equalize_lut_1
        .compute_root()
        .split(i, i_vo, i_vi, 32)
        .vectorize(i_vi)
        .parallel(i_vo);
}
{
    Var x = hist_eq_1.args()[0];
    Var y = hist_eq_1.args()[1];
    hist_eq_1
        .compute_root()
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var d0 = input_clamped_1.args()[0];
    Var d1 = input_clamped_1.args()[1];
    input_clamped_1
        .compute_root()
        .split(d0, d0_vo, d0_vi, 32)
        .vectorize(d0_vi)
        .parallel(d1);
}

