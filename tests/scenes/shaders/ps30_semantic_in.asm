ps_3_0
def c0, 0, 0, 0, 1
dcl_texcoord2 v0
dcl_texcoord0 v1
mov r0, c0
mov r0.x, v0.x
mov r0.y, v1.y
mov oC0, r0
