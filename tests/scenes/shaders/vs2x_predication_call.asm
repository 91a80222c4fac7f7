vs_2_x
dcl_position v0
def c0, 0.25, 0.5, 0.75, 1
def c1, 0, 0, 0, 0
mov oPos, v0
mov r0, c1
setp_gt p0, c2, c1
(p0) mov r0, c0
(!p0.x) add r0.x, r0.x, c0.w
call l0
mov oD0, r0
ret
label l0
add r0.y, r0.y, c0.x
ret
