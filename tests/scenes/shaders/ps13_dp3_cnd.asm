ps_1_3
def c0, 1, 0, 0, 0
def c2, 0, 0, 1, 1
tex t0
dp3 r0, t0_bx2, c0
cnd r0, r0.a, t0, c2
