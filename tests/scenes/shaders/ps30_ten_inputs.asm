ps_3_0
def c0, 0.1, 0.2, 0.3, 0.4
def c1, 0.5, 0.6, 0.7, 0.8
def c2, 0.9, 0.15, 0, 1
def c3, 16, 0, 0, 0
dcl_texcoord0 v0
dcl_texcoord1 v1
dcl_texcoord2 v2
dcl_texcoord3 v3
dcl_texcoord4 v4
dcl_texcoord5 v5
dcl_texcoord6 v6
dcl_texcoord7 v7
dcl_color0 v8
dcl_color1 v9
add r0.x, v0.x, -c0.x
add r0.y, v1.x, -c0.y
add r0.z, v2.x, -c0.z
add r0.w, v3.x, -c0.w
abs r0, r0
add r1.x, v4.x, -c1.x
add r1.y, v5.x, -c1.y
add r1.z, v6.x, -c1.z
add r1.w, v7.x, -c1.w
abs r1, r1
add r2.x, v8.x, -c2.x
add r2.y, v9.x, -c2.y
abs r2.xy, r2
add r0, r0, r1
add r3.x, r0.x, r0.y
add r3.x, r3.x, r0.z
add r3.x, r3.x, r0.w
add r3.x, r3.x, r2.x
add r3.x, r3.x, r2.y
mul_sat r3.x, r3.x, c3.x
mov r4, c2.zzzw
mov r4.x, r3.x
add r4.y, c2.w, -r3.x
mov r4.z, v9.x
mov oC0, r4
