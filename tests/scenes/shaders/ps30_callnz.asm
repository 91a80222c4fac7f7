ps_3_0
def c0, 0.25, 0.5, 0, 1
mov r0, c0.zzzw
callnz l1, b0
callnz l2, b1
call l1
mov oC0, r0
ret
label l1
add r0.x, r0.x, c0.x
ret
label l2
add r0.y, r0.y, c0.y
ret
