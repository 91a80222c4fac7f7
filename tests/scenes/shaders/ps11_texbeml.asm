ps_1_1
tex t0
texbeml t1, t0
mov r0, t1
