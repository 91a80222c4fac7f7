ps_3_0
def c0, 0.25, 1, 0, 0
mov r0, c0.zzzy
rep i0
  add r0.x, r0.x, c0.x
endrep
if b0
  mov r0.y, c0.y
else
  mov r0.z, c0.y
endif
mov oC0, r0
