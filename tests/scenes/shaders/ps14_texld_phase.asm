ps_1_4
texld r0, t0
phase
texld r1, r0
mul r0, r1, v0
