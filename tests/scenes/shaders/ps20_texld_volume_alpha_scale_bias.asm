ps_2_0
dcl t0
dcl_volume s0
texld r0, t0, s0
mad r0, r0.wwww, c0, c1
mov oC0, r0
