// ps_2_0: every ps_2_0 instruction, sampler types, texldp/texldb, _pp/_centroid, oC#/oDepth
// (negation is its only source modifier: _abs is ps_3_0's).
ps_2_0
dcl t0.xy
dcl t1
dcl_pp t2
dcl_centroid t3.xyz
dcl v0
dcl_2d s0
dcl_cube s1
dcl_volume s2
def c0, 1, 0, 0.5, -1
def c31, 3.14159274, -0, 1e-10, 65504
texld r0, t0, s0
texldp r1, t1, s1
texldb_pp r2, t1, s2
texkill t1
abs r3, r0
add r3, r3, c0
cmp r4, r3, r0, r1
crs r5.xyz, r0, r1
dp2add r6, r0, r1, c0.x
dp3 r7, r0, r1
dp4 r7.w, r0, r1
exp r8, r0.x
log r8.y, r0.y
frc r9, r0
lrp r9, r0, r1, r2
m3x2 r10.xy, r0, c1
m3x3 r10.xyz, r0, c1
m3x4 r11, r0, c1
m4x3 r10.xyz, r0, c1
m4x4 r11, r0, c1
mad r0, r0, c0, r1
max r1, r0, c0
min r1, r1, -c0
mov r2, c0
mul r2, r2, v0
nrm_pp r3.xyz, r2
pow r4, r0.x, r0.y
rcp r5, r0.w
rsq r5.y, r0.z
sincos r6.xy, r0.x, c2, c3
sub_sat r7, r0, r1
nop
mov oC0, r0
mov oC1, r1
mov oDepth, r0.x
