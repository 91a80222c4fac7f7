ps_3_0
def c0, 0.25, 0.25, 0, 0
dcl_color v0
dcl_2d s0
mov r1, c0
texld r0, r1, s0
mul oC0, r0, v0
