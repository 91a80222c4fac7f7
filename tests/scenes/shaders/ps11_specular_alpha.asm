ps_1_1
mov r0, v1.a
