ps_3_0
defi i0, 10, 0, 1, 0
def c0, 0.1875, 0.0625, 0, 1
mov r0, c0.z
loop aL, i0
  break_ge r0.x, c2.x
  add r0.xy, r0, c0
endloop
mov r0.w, c0.w
mov oC0, r0
