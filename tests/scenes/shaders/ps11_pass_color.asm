ps_1_1
mov r0, v0
