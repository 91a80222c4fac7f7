ps_2_0
dcl t0.xy
dcl_2d s0
mov r0.xy, t0
mov r0.z, c0.z
mov r0.w, c0.w
texldb r1, r0, s0
mov oC0, r1
