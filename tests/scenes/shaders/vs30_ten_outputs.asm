vs_3_0
def c0, 0.1, 0.2, 0.3, 0.4
def c1, 0.5, 0.6, 0.7, 0.8
def c2, 0.9, 0.15, 0, 1
dcl_position v0
dcl_position o0
dcl_color1 o1
dcl_texcoord7 o2
dcl_texcoord0 o3
dcl_color0 o4
dcl_texcoord5 o5
dcl_texcoord1 o6
dcl_texcoord6 o7
dcl_texcoord2 o8
dcl_texcoord4 o9
dcl_texcoord3 o10
mov o0, v0
mov o3, c0.x
mov o6, c0.y
mov o8, c0.z
mov o10, c0.w
mov o9, c1.x
mov o5, c1.y
mov o7, c1.z
mov o2, c1.w
mov o4, c2.x
mov o1, c2.y
