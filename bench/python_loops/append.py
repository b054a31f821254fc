# 10**6 list appends.
out = []
for i in range(1000000):
    out.append(i)
print(len(out), out[-1])
