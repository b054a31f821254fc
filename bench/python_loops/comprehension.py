# A comprehension over 10**6 items with a condition.
squares = [i * i for i in range(1000000) if i % 3]
print(len(squares), squares[-1])
