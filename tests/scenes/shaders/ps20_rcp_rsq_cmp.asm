ps_2_0
def c1, 0.5, 2, 4, -1
rcp r0.x, c1.y
rsq r0.y, c1.z
cmp r0.z, c1.w, c1.x, c1.x
max r0.z, r0.z, c1.x
mov r0.w, c1.x
mov oC0, r0
