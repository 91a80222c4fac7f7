vs_1_1
def c0, 0, 0.5, 0, 0
def c1, 0, 0.75, 0, -1.5
def c2, 1, 1, 1, 1
dcl_position v0
mov oPos, v0
dst r0, c0, c1
expp r1, c1.w
mov r2, c2
mov r2.x, r0.y
mov r2.y, r1.x
mov r2.z, r1.z
mov oD0, r2
