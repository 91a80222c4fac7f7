vs_3_0
dcl_position v0
dcl_position o0
dcl_color o1
defi i0, 3, 4, 1, 0
def c0, 0, 0, 0, 0
mov o0, v0
mov r0, c0
loop aL, i0
add r0, r0, c0[aL]
endloop
mov o1, r0
