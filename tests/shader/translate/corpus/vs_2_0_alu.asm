// vs_2_0: every vs_2_0 arithmetic instruction, mova-relative constants, subroutines, static flow.
vs_2_0
dcl_position v0
dcl_normal v1
dcl_texcoord3 v2
def c0, 1, 0, 0.5, -2.5
defi i0, 3, 1, 2, 0
defb b3, false
mova a0.x, v2.x
mov r0, c10[a0.x]
add r1, r0, -c1
sub r1, r1, c2.yzwx
mad r2, r1, c3.x, r0
mul r2, r2, c4
rcp r3.x, r2.w
rsq r3.y, r2.z
dp3 r3.z, v1, c5
dp4 r3.w, v0, c6
min r4, r3, c7
max r4, r4, c8
slt r5, r4, c9
sge r5, r5, c9
exp r6.x, c11.x
expp r6.y, c11.y
log r6.z, c11.z
logp r6.w, c11.w
lit r7, r4
dst r8, r4, r5
lrp r9, c0.z, r7, r8
frc r10, r9
m4x3 r11.xyz, v0, c12
m3x4 r11, v1, c16
m3x3 r11.xyz, v1, c20
m3x2 r11.xy, v1, c24
abs r0, r11
nrm r0.xyz, r0
pow r1.x, r0.x, c0.z
crs r1.xyz, r0, v1
sgn r2, r1, r3, r4
sincos r2.xy, r1.x, c200, c201
nop
rep i0
  add r3, r3, c0
endrep
loop aL, i0
  mad r4, r4, c30[aL], c0
endloop
if b3
  call l1
else
  callnz l2, b3
endif
m4x4 oPos, v0, c40
mov oD0, r4
mov oD1, r5
mov oT0, r6
mov oT7.xy, r7
mov oFog, r8.x
mov oPts, r9.x
ret
label l1
  call l2
  ret
label l2
  add r5, r5, c0
  ret
