# A 4-element dot product followed by a scaled store.
a0 3
b0 3
a1 3
b1 3
a2 3
b2 3
a3 3
b3 3
p0 4 a0 b0
p1 4 a1 b1
p2 4 a2 b2
p3 4 a3 b3
s0 2 p0 p1
s1 2 p2 p3
s 2 s0 s1
k 3
r 4 s k
out 1 r
