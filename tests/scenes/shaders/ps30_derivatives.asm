ps_3_0
def c0, 32, 8, 0, 1
dcl_texcoord v0.xy
dsx r0, v0
dsy r1, v0
mov r2, c0.zzzw
mul r2.x, r0.x, c0.x
mul r2.y, r1.y, c0.y
mov r2.z, r0.y
mov oC0, r2
