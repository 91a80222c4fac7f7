ps_2_0
def c0, 0.25, 0, 0, 0
dcl v0
mov oDepth, c0.x
mov oC0, v0
