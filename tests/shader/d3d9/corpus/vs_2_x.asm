// vs_2_x: predication, setp, comparisons, break/breakc/breakp, predicated callnz and if.
vs_2_x
dcl_position v0
defi i0, 3, 0, 0, 0
def c0, 1, 0, 0, 0
setp_gt p0, v0, c0
(p0.x) add r0, v0, c0
(!p0) mov r0, v0
mov r31, r0
rep i0
    break_lt r0.x, c0.x
    breakp p0.y
    breakp !p0.z
    if_ne r0.y, c0.y
        break
    endif
endrep
if p0.x
    mov r1, c0
endif
if !p0.w
    mov r1, -c0
endif
callnz l2, !p0.x
m4x4 oPos, v0, c4
ret
label l2
    ret
