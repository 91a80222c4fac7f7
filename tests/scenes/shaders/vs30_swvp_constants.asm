// vs20_swvp_constants in vs_3_0 (with ps30_pass_color).
vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_texcoord1 v2
dcl_position o0
dcl_color0 o1
mova a0.x, v2.x
mul r0, c300, v1.x
mad r0, c2100, v1.y, r0
mad r0, c8191, v1.z, r0
mov r1, c[a0.x + 250]
mad r0, r1, v1.w, r0
mov r2, c0
rep i20
  add r2, r2, c1
endrep
if b300
  add r2, r2, c2
endif
mad r0, r2, v2.y, r0
mov o0, v0
mov o1, r0
