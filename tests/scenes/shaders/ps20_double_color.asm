ps_2_0
dcl v0
add r0, v0, v0
mov oC0, r0
