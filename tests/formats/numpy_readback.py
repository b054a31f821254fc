"""Reads the .npy/.npz files named on the command line with NumPy (allow_pickle=False, as
a careful reader would) and prints a JSON object: for each file, its array (or, for an
archive, each named array) as {"dtype": NumPy's type string, "shape", "values": flat,
row-major, with bytes as hex}. tests/formats_numpy.rs compares it with what ragtag wrote.
"""

import json
import sys

import numpy as np


def describe(arr):
    flat = arr.reshape(-1)
    if arr.dtype.kind == "S":
        values = [bytes(b).hex() for b in flat]
    else:
        values = [v.item() for v in flat]
    return {"dtype": arr.dtype.str, "shape": list(arr.shape), "values": values}


result = {}
for name in sys.argv[1:]:
    loaded = np.load(name, allow_pickle=False)
    if isinstance(loaded, np.lib.npyio.NpzFile):
        result[name] = {key: describe(loaded[key]) for key in loaded.files}
    else:
        result[name] = describe(loaded)
json.dump(result, sys.stdout)
