vs_2_0
def c0, 0.5, 0.25, -2, -0.25
def c1, 0, 0, 0, 1
dcl_position v0
mov oPos, v0
sge r0.x, c0.x, c0.y
slt r0.y, c0.y, c0.x
mul r0.x, r0.x, c0.x
mad r2.x, r0.y, c0.y, r0.x
exp r2.y, c0.z
pow r3.x, c0.y, c0.x
log r3.y, c0.x
mul r3.y, r3.y, c0.w
mad r2.z, r3.x, c0.x, r3.y
mov r2.w, c1.w
mov oD0, r2
