ps_3_0
dcl_texcoord v0.xy
dcl_2d s0
mov r0.xy, v0
mov r0.z, c0.z
mov r0.w, c0.w
texldl r1, r0, s0
mov oC0, r1
