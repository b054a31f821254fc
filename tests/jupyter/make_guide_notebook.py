"""Writes examples/ragged_guide.ipynb from the guide notebook seed: its code cells, unchanged,
in a notebook whose kernel is ragtag, and where the guide has a figure a `draw` cell that
pictures the value at hand (tagged `picture`; tests that compare the notebook with the guide
leave those out). Outputs are stored afterwards by
`run_notebook.py --bless examples/ragged_guide.ipynb`.

usage: make_guide_notebook.py [SEED] [OUT]
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "..", "shared", "seeds", "003_6b90ffbde28121d8.txt")
OUT = os.path.join(ROOT, "examples", "ragged_guide.ipynb")


# After the guide's code cell N (counting from 0), a picture in the place of its figure: what
# the figure shows, and the draw call that shows it for the value the cell made.
PICTURES = {
    13: (
        "The guide's figures of the row-partition encodings (value_rowids, row_lengths, "
        "row_splits), drawn for this value:",
        "draw(tf.RaggedTensor.from_row_splits(\n"
        "    values=[3, 1, 4, 1, 5, 9, 2, 6],\n"
        "    row_splits=[0, 4, 4, 7, 8]), encodings=True)",
    ),
    18: ("The guide's figure of a batch of ragged queries, drawn:", "draw(queries)"),
    22: (
        "The guide's two concatenation figures side by side: the ragged result keeps "
        "each row's words together, the sparse one leaves implicit cells between them:",
        "draw(tf.concat([ragged_x, ragged_y], axis=1), sparse_result)",
    ),
    50: ("The guide's figure of this tensor's encoding:", "draw(rt, encodings=True)"),
    52: ("The guide's figure of a tensor with ragged_rank 2:", "draw(rt)"),
    53: ("The guide's figure of a uniform inner dimension:", "draw(rt)"),
}


def main():
    seed = sys.argv[1] if len(sys.argv) > 1 else SEED
    out = sys.argv[2] if len(sys.argv) > 2 else OUT
    with open(seed, encoding="utf-8") as f:
        guide = json.load(f)
    intro = (
        "# Ragged tensors, in ragtag\n",
        "\n",
        "The code cells of TensorFlow's ragged tensor guide, run by the ragtag kernel. "
        "Each result shows as an annotated table: cells past the end of a ragged row are "
        "marked absent.",
    )
    cells = [{"cell_type": "markdown", "metadata": {}, "source": list(intro)}]
    code = [c for c in guide["cells"] if c["cell_type"] == "code"]
    for n, cell in enumerate(code):
        source = cell["source"]
        if isinstance(source, list):
            source = "".join(source)
        cells.append(
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": source.splitlines(keepends=True),
            }
        )
        if n in PICTURES:
            note, call = PICTURES[n]
            cells.append({"cell_type": "markdown", "metadata": {"tags": ["picture"]}, "source": note})
            cells.append(
                {
                    "cell_type": "code",
                    "execution_count": None,
                    "metadata": {"tags": ["picture"]},
                    "outputs": [],
                    "source": call.splitlines(keepends=True),
                }
            )
    notebook = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "ragtag", "language": "python", "name": "ragtag"},
            "language_info": {
                "name": "python",
                "mimetype": "text/x-python",
                "file_extension": ".py",
                "pygments_lexer": "python3",
                "codemirror_mode": {"name": "python", "version": 3},
            },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    for i, cell in enumerate(notebook["cells"]):
        cell["id"] = f"cell-{i:03d}"
    with open(out, "w", encoding="utf-8") as f:
        json.dump(notebook, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {out} ({len(code)} code cells of the guide, {len(PICTURES)} pictures)")


if __name__ == "__main__":
    main()
