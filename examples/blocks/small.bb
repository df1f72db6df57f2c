# A small block whose optimum every search should find.
ld1 3
ld2 3
mul 4 ld1 ld2
ld3 3
add 1 mul ld3
st 1 add
