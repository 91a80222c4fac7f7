vs_3_0
dcl_position v0
dcl_color v1
dcl_position o0
dcl_color o1
dcl_psize o2
mov o0, v0
mov o1, v1
mov o2, c0.x
