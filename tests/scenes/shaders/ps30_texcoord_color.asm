ps_3_0
def c0, 0, 0, 0, 1
dcl_texcoord0 v0.xy
mov r0, c0
mov r0.xy, v0
mov oC0, r0
