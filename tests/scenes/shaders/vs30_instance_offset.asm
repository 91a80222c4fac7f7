vs_3_0
dcl_position v0
dcl_color v1
dcl_texcoord v2
dcl_position o0
dcl_color o1
add o0.xy, v0, v2
mov o0.zw, v0
mov o1, v1
