// ps_3_0: every pixel instruction of shader model 3 and every output.
ps_3_0
dcl_texcoord0 v0
dcl_texcoord5_centroid v1
dcl_color0 v2
dcl_color1 v3
dcl_fog v4.x
dcl_normal v5
dcl vPos.xy
dcl vFace
dcl_2d s0
dcl_cube s1
dcl_volume s2
dcl_2d s3
def c0, 1, 0, 0.5, -1
defi i0, 3, 0, 1, 0
defb b0, true
texld r0, v0, s0
texldp r1, v0, s1
texldb r2, v1, s2
texldl r3, v1, s0
dsx r4, v0
dsy r5, v0
texldd r6, v0, s3.yzxw, r4, r5
texkill v1
add r7, r0, r1
sub r7, r7, r2
mad r7, r7, c0.z, r3
mul r7, r7, v2
mov r8, c1
rcp r8.x, r7.x
rsq r8.y, r7.y
exp r8.z, r7.z
log r8.w, r7.w
pow r9.x, r8.x, r8.y
frc r9.y, r8.z
abs r9.z, r8.w
cmp r10, r9, r7, r8
dp2add r10.x, r9, r8, c0.x
dp3 r10.y, r9, r8
dp4 r10.z, r9, r8
lrp r11, c0.z, r10, r9
min r11, r11, c2
max r11, r11, -c2
crs r12.xyz, r11, r10
nrm r12.xyz, r12
sincos r13.xy, r12.x
m4x4 r14, r13, c4
m4x3 r14.xyz, r13, c4
m3x4 r14, r13, c4
m3x3 r14.xyz, r13, c4
m3x2 r14.xy, r13, c4
setp_ne p0, r14, c0
(p0) mov r15, v3
(!p0.x) texld r15, v4.x, s0
rep i0
  add r16, r16, v5
  breakp !p0.w
endrep
loop aL, i0
  add r16, r16, v0[aL]
  if_gt r16.x, c0.x
    break
  endif
endloop
if b0
  call l3
endif
if p0.y
  callnz l4, b0
else
  callnz l4, !p0.z
endif
mul r17, vPos.xyxy, c3
cmp r17, vFace, r17, -r17
nop
mov oC0, r16
mov oC1, r17
mov oC2, r15
mov_sat oC3, r11
mov oDepth, r12.z
ret
label l3
  texkill r12
  ret
label l4
  call l3
  ret
