// ps_3_0: semantic inputs, vPos/vFace, loop with aL-relative inputs, texldl, _abs (3_0 only).
ps_3_0
dcl_texcoord v0.xy
dcl_texcoord1_centroid v1
dcl_color v2
dcl vPos.xy
dcl vFace
dcl_2d s0
dcl_cube s1
defi i0, 4, 0, 1, 0
def c0, 1, 0, 0.5, 0
texld r0, v0, s0
texldl r1, v1, s1
sincos r2.xy, r0.x
loop aL, i0
    add r3, r3, v0[aL]
endloop
if_lt vFace, c0.x
    mov r4, -r0
    add r4, r4_abs, -r0_abs
endif
mul r5, vPos.xyxy, c223
mov oC0, r0
mov oDepth, r1.x
