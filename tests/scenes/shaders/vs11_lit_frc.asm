vs_1_1
def c0, 0.5, 0.5, 0, 2
def c1, 2.75, 0, 0, 1
dcl_position v0
mov oPos, v0
lit r0, c0
frc r1.xy, c1
mov r2, c1.wwww
mov r2.x, r0.y
mov r2.y, r0.z
mov r2.z, r1.x
mov oD0, r2
