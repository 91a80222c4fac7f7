// vs_1_1: every vs_1_1 instruction, relative constants through a0.x, all vs_1_1 outputs.
vs_1_1
dcl_position v0
dcl_normal v1
dcl_texcoord v2
dcl_color1 v3
def c95, 1, 0, 0.5, -2.5
m4x4 oPos, v0, c0
m4x3 r0.xyz, v0, c4
m3x4 r1, v1, c8
m3x3 r2.xyz, v1, c12
m3x2 r3.xy, v1, c16
mov a0.x, c20.x
mov r4, c[a0.x + 21]        ; the vs_1_1 spelling; printed back as c21[a0.x]
add r5, r4, -c22
sub r5, r5, c23.yzwx
mad r6, r5, c24.x, r4
mul r6, r6, c25
rcp r7.x, r6.w
rsq r7.y, r6.z
dp3 r8.x, v1, c26
dp4 r8.y, v0, c27
min r9, r8, c28
max r9, r9, c29
slt r10, r9, c30
sge r10, r10, c31
exp r11, c32.x
expp r11.x, c33.y
log r11.y, c34.z
logp r11.z, c35.w
lit r0, r9
dst r1, r9, r10
frc r2, r11
nop
mov oD0, r0
mov oD1, v3
mov oT0, v2
mov oT1.xy, r2
mov oFog, r3.x
mov oPts, r3.y
