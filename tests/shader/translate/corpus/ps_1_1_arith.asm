// ps_1_1: arithmetic with every ps_1_x source modifier, shifts, co-issue, texcoord, texkill.
ps_1_1
def c0, 1, 0.5, 0.25, 0
tex t0
texcoord t1
texkill t2
mov r0, v0
add_sat r0, r0, t0_bias
mul_x2 r1, v1_bx2, c0
mad r1.rgb, 1-r1, c0, -t1_bx2
+mov r1.a, c0.b
lrp r0, c0, r0, r1
cnd r0, r0.a, r1, t0
dp3_sat r1, t0_bx2, v0_bx2
sub_d2 r0, r0, -r1_bias
mul_x4 r0, r0, c0
nop
