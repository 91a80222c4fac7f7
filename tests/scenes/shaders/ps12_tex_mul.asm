ps_1_2
tex t0
mul r0, t0, v0
