// ps_1_4: texcrd/texld with _dz/_dw, texdepth, phase, cnd/cmp per component, co-issue, texkill.
ps_1_4
def c0, 1, 0, 0, 1
def c7, 2, -2, 0.5, 1
texcrd r0.xyz, t0
texld r1, t1
texld r2, t2_dw.xyw
texcrd r5.rgb, t5_dz
texdepth r5
phase
texld r3, t3
texld r4, r2_dz.xyz
mul_x4 r0, r1, c0
add_d8 r0, r0, r4
mad_sat r0, r0, c7, 1-r1
cnd r0, r0, r1, r2
cmp r0, r0, r1, r3
texkill r1
dp3 r2, r1_bx2, r3_x2
mov r0.rgb, r1_x2
+mov r0.a, -r2_x2
