# 10**6 passes of `s += i`.
s = 0
for i in range(1000000):
    s += i
print(s)
