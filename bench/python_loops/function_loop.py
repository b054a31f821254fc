# A loop of 10**6 passes inside a function, over its local variables.
def total(n):
    acc = 0
    for i in range(n):
        if i % 3:
            acc += i * 2
    return acc


print(total(1000000))
