# 10**6 calls of a user class's method.
class Counter:
    def __init__(self):
        self.total = 0

    def add(self, x):
        self.total += x


c = Counter()
for i in range(1000000):
    c.add(i)
print(c.total)
