ps_2_0
def c0, 1, 0, 0, 1
def c2, 0, 0, 1, 1
mov oC0, c0
mov oC2, c2
