ps_1_2
def c0, 0.75, 0.75, 0.75, 1
def c1, 0.25, 0, 0.125, 0
tex t0
mad r0.rgb, t0, c0, c1
+mov r0.a, c0.a
