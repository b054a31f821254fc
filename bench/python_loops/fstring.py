# 10**6 f-strings with a format spec.
n = 0
for i in range(1000000):
    n += len(f"row {i:>7}: {i / 3:.2f}")
print(n)
