// ps_2_x: gradients, texldd, predication, dynamic flow control, subroutines.
ps_2_x
dcl t0
dcl_2d s0
def c0, 1, 0, 0, 0
defi i0, 4, 0, 0, 0
defb b1, false
dsx r0, t0
dsy r1, t0
texldd r2, t0, s0, r0, r1
setp_ge p0, r2, c0
(p0.x) mov r3, c0
(!p0.yzwx) texld r4, t0, s0
rep i0
    if_eq r3.x, c0.x
        break
    endif
    break_gt r3.y, c0.x
    breakp !p0.y
endrep
if b1
    call l0
else
    callnz l1, !p0.x
endif
sincos r5.xy, r0.x, c1, c2
mov r31, r2
mov oC0, r2
ret
label l0
    ret
label l1
    ret
