// vs_3_0: output declarations, vertex texture fetch, relative output/input addressing (a0 with
// its whole swizzle too), _abs (3_0 only).
vs_3_0
dcl_position v0
dcl_texcoord v1
dcl_texcoord1 v2
dcl_position o0
dcl_texcoord o1.xy
dcl_color o2
dcl_fog o3.x
dcl_psize o4.x
dcl_texcoord2 o5
dcl_texcoord3 o6
dcl_2d s0
defi i0, 2, 0, 1, 0
def c0, 1, 0, 0.5, 2
texldl r0, v1, s0
sincos r1.xy, r0.x
sgn r2, r0
loop aL, i0
    mov o5[aL], c1[aL]
    add r3, r3, v1[aL]
endloop
mova a0.xy, c2
mov r4, c10[a0.y]
add r4, r4, c[a0 + 12]
mad r4, -r4_abs, c0.w, r2_abs
m4x4 o0, v0, c4
mov o1.xy, r1
mov o2, r2
mov o3.x, r4.x
mov_sat o4.x, c0.x
