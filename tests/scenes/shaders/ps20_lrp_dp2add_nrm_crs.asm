ps_2_0
def c0, 0.25, 0.75, 0.5, 1
def c1, 3, 4, 0, 0
def c2, 1, 0, 0, 0
def c3, 0, 1, 0, 0
lrp r0, c0.x, c0.y, c0.z
dp2add r1.x, c0, c0.z, c0.x
nrm r2, c1
crs r3.xyz, c2, c3
mov r4, c0.w
mov r4.x, r0.x
mov r4.y, r1.x
mul r4.z, r2.y, r3.z
mov oC0, r4
