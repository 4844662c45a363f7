"""Reference vectors from model2vec for the embedding tests.

Reads {"model": <folder>, "texts": [...]} as JSON on stdin, loads the folder with
model2vec's StaticModel.from_pretrained, and prints {"version", "vectors": [[...], ...],
"ids": [[...], ...]} (ids = model2vec's tokenisation after unk removal, before truncation).
"""
import json
import sys

import model2vec
from model2vec import StaticModel


def main() -> None:
    req = json.load(sys.stdin)
    model = StaticModel.from_pretrained(req["model"])
    vectors = model.encode(req["texts"])
    ids = model.tokenize(req["texts"])
    json.dump(
        {
            "version": model2vec.__version__,
            "vectors": [[float(x) for x in v] for v in vectors],
            "ids": ids,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
