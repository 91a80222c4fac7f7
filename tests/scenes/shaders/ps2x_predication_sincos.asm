ps_2_x
def c0, 0, 0.5, 1, 0.25
def c1, -1.5500992e-006, -2.1701389e-005, 0.0026041667, 0.00026041668
def c2, -0.020833334, -0.125, 1, 0.5
def c3, 0.643501109, 0, 0, 0
dcl t0
mov r0, c0.x
sincos r0.xy, c3.x, c1, c2
setp_lt p0, t0, c0.y
(p0.x) mov r0.z, c0.z
(!p0.x) mov r0.z, c0.w
mov r0.w, c0.z
mov oC0, r0
