# 10**6 calls of a user function.
def step(acc, x):
    return acc + x * 2

acc = 0
for i in range(1000000):
    acc = step(acc, i)
print(acc)
