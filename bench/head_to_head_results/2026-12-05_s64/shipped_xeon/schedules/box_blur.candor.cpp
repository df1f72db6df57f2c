{
    Halide::Func input_im = funcs.at("input_im");
    Halide::Func input_clamped = funcs.at("input_clamped");
    Halide::Func blur_x = funcs.at("blur_x");
    Halide::Func blur_y = funcs.at("blur_y");
    Halide::Var x("x");
    Halide::Var x_o("x_o");
    Halide::Var x_i("x_i");
    Halide::Var y("y");
    Halide::Var y_i_o("y_i_o");
    Halide::Var y_o("y_o");
    Halide::Var y_i("y_i");
    Halide::Var y_i_i("y_i_i");
    input_im.compute_inline();
    input_clamped.compute_inline();
    blur_x.split(x, x_o, x_i, 32, Halide::TailStrategy::GuardWithIf);
    blur_x.reorder(x_i, x_o, y);
    blur_x.vectorize(x_i);
    blur_x.compute_at(blur_y, y_i_o);
    blur_x.store_at(blur_y, y_o);
    blur_y.split(x, x_o, x_i, 32, Halide::TailStrategy::Auto);
    blur_y.split(y, y_o, y_i, 16, Halide::TailStrategy::Auto);
    blur_y.split(y_i, y_i_o, y_i_i, 4, Halide::TailStrategy::Auto);
    blur_y.reorder(x_i, x_o, y_i_i, y_i_o, y_o);
    blur_y.vectorize(x_i);
    blur_y.unroll(y_i_i);
    blur_y.parallel(y_o);
}
