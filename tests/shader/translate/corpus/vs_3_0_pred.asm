// vs_3_0: predication everywhere, texldl with a cube sampler, breakc/breakp, relative o#.
vs_3_0
dcl_position v0
dcl_blendweight v1
dcl_blendindices v2
dcl_tangent v3
dcl_binormal v4
dcl_position o0
dcl_normal o1
dcl_normal1 o2
dcl_tangent o3
dcl_binormal o4
dcl_blendweight o5
dcl_blendindices o6
dcl_depth o7
dcl_position1 o8
dcl_sample o9
dcl_color1 o10
dcl_texcoord15 o11
dcl_cube s1
dcl_volume s3
def c0, 1, 0, 0.5, 2
defi i0, 4, 0, 1, 0
setp_lt p0, v1, c0
(p0) mov r0, v1
(!p0.y) add r0, r0, c0
(p0.z) mova a0.x, v2.x
texldl r1, v3, s1
(p0.w) texldl r2, v3, s3
loop aL, i0
  break_ge r0.x, c0.w
  breakp p0.x
  (p0.y) break
  add r0, r0, c1[aL]
  mov o1[aL], r0
endloop
if_le r0.y, c0.x
  callnz l0, p0.x
endif
m4x4 o0, v0, c4
mov o5, v4
mov o6, c2[a0.x]
mov o7, r1
mov o8, r2
mov o9, r0
mov o10, r1
mov_sat o11, r2
ret
label l0
  sgn r3, r0
  sincos r3.xy, r0.x
  ret
