vs_3_0
def c0, 0, 0, 0, 0
dcl_position v0
dcl_texcoord v2
dcl_2d s0
dcl_position o0
dcl_color o1
mov o0, v0
mov r1, v2
mov r1.w, c0.x
texldl r0, r1, s0
mov o1, r0
