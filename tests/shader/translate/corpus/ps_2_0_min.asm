// ps_2_0: high texture coordinate/colour registers, _pp texld.
ps_2_0
dcl t0
dcl t7.xy
dcl v1
dcl_2d s5
texld_pp r0, t0, s5
texld r1, t7, s5
mul r0, r0, v1
add r0, r0, r1
mov oC0, r0
