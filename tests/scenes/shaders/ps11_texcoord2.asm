ps_1_1
texcoord t2
mov r0, t2
