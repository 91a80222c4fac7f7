vs_2_0
dcl_position v0
def c0, 0, 0, 0, 1
def c1, 0.125, 0.25, 0.5, 1
mov oPos, v0
mov r0, c0
rep i0
  add r0.xy, r0, c1
endrep
if b0
  add r0.z, r0.z, c1.z
else
  mov r0.z, c1.w
endif
mov oD0, r0
