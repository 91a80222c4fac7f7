ps_1_1
tex t0
mul r0, t0, v0
