vs_2_0
dcl_position v0
dcl_color v1
mov oPos, v0
mov oD0, v1
