ps_1_1
texcoord t0
mov r0, t0
