vs_1_1
def c0, 1, 1, 0, 2
dcl_position v0
dcl_color v1
dcl_texcoord v2
mov oPos, v0
mov oD0, v1
mov oT0, v2
mul oT1, v2, c0
