// ps_1_4: texcrd/texld with _dz/_dw, bem, texdepth, phase, cnd/cmp, _x2 source, co-issue.
ps_1_4
def c0, 1, 0, 0, 1
texcrd r0.xyz, t0
texld r1, t1
texld r2, t2_dw.xyw
bem r3.xy, r1, r2
texdepth r5
phase
texld r4, r3_dz.xyz
mul_x4 r0, r1, c0
add_d8 r0, r0, r4
mad_sat r0, r0, c0, 1-r1
cnd r0, r0, r1, r2
cmp r0, r0, r1, r2
texkill r1
mov r0.rgb, r1_x2
+mov r0.a, -r1_x2
