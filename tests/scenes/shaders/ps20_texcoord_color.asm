ps_2_0
def c0, 0, 0, 0, 1
dcl t0.xy
mov r0, c0
mov r0.xy, t0
mov oC0, r0
