// ps_1_2: cmp, dp4 and the dependent reads new in 1.2.
ps_1_2
def c1, 0.5, 0.5, 0.5, 1
tex t0
texreg2ar t1, t0
texreg2gb t2, t0
texreg2rgb t3, t0
cmp r0, t1, t2, t3
dp4 r1, t0, c1
mad_d4 r0, r0, r1, c1
