// vs_2_0: integer/bool constants, mova, static flow control (if/rep/loop), subroutines.
vs_2_0
dcl_position v0
dcl_normal v1
dcl_blendweight v2
dcl_blendindices v3
def c0, 1, 0, 0.5, 0.25
defi i0, 4, 0, 1, 0
defb b0, true
mova a0.x, v3.x
mov r0, c10[a0.x]
abs r1, r0
crs r2.xyz, v1, c1
nrm r3.xyz, r2
pow r4.x, r1.x, c0.z
lrp r5, c0.x, r0, r1
sgn r6, r0, r7, r8
sincos r9.xy, c0.x, c200, c201
rep i0
    add r10, r10, c0
endrep
loop aL, i0
    add r10, r10, c20[aL]
endloop
if b0
    mov r11, c0
else
    mov r11, -c0
endif
call l0
callnz l1, b0
m4x4 oPos, v0, c4
mov oD0, r10
ret
label l0
    mov r7, c0
    ret
label l1
    ret
