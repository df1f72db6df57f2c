# An 8-tap FIR filter step: loads, multiplies, and a reduction tree of adds.
x0 4
x1 4
x2 4
x3 4
x4 4
x5 4
x6 4
x7 4
m0 3 x0
m1 3 x1
m2 3 x2
m3 3 x3
m4 3 x4
m5 3 x5
m6 3 x6
m7 3 x7
a0 1 m0 m1
a1 1 m2 m3
a2 1 m4 m5
a3 1 m6 m7
b0 1 a0 a1
b1 1 a2 a3
y 1 b0 b1
st 1 y
