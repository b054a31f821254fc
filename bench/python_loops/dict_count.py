# Counting 10**6 keys in a dict of 1,000.
counts = {}
for i in range(1000000):
    k = i % 1000
    counts[k] = counts.get(k, 0) + 1
print(len(counts), counts[7])
