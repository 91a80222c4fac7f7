vs_1_1
dcl_position v0
dcl_color v1
mov oPos, v0
mov oD0, v1
mov oPts, c0.x
