vs_2_0
dcl_position v0
dcl_texcoord v1
mov oPos, v0
mova a0.x, v1.x
mov oD0, c4[a0.x]
