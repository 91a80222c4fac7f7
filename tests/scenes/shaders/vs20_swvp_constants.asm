// Software vertex processing's constant files (a device of software or mixed vertex processing):
// the colour is the sum of c300, c2100 (D3DSPR_CONST2), c8191 (D3DSPR_CONST4) and c[a0.x + 250],
// weighted by TEXCOORD0, plus TEXCOORD1.y times (rep i20 of c1, then c2 if b300). TEXCOORD1.x is
// a0.x.
vs_2_0
dcl_position v0
dcl_texcoord0 v1
dcl_texcoord1 v2
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
mov oPos, v0
mov oD0, r0
