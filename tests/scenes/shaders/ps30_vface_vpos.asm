ps_3_0
def c0, 0.5, 0.25, 0.015625, 1
dcl vFace
dcl vPos.xy
mad r0.x, vFace, c0.y, c0.x
mul r0.yz, vPos.xxy, c0.z
mov r0.w, c0.w
mov oC0, r0
