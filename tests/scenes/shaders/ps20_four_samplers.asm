ps_2_0
def c0, 1, 0.5, 0.25, 0.125
dcl t0.xy
dcl_2d s0
dcl_2d s1
dcl_2d s2
dcl_2d s3
texld r0, t0, s0
texld r1, t0, s1
texld r2, t0, s2
texld r3, t0, s3
mul r0, r0, c0.x
mad r0, r1, c0.y, r0
mad r0, r2, c0.z, r0
mad r0, r3, c0.w, r0
mov oC0, r0
