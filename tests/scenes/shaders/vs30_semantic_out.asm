vs_3_0
def c0, 0.75, 0.25, 0, 0
dcl_position v0
dcl_position o0
dcl_texcoord0 o1
dcl_color0 o2
dcl_texcoord2 o3
mov o0, v0
mov o1, c0.y
mov o2, c0.z
mov o3, c0.x
