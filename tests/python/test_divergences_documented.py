"""Every known divergence the backend runner expects to fail is named in README.md."""
import os

from test_onnx_backend import KNOWN_DIVERGENCES

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def test_each_divergence_is_in_the_readme():
    text = open(README, encoding="utf-8").read()
    missing = [name for name in KNOWN_DIVERGENCES if name not in text]
    assert not missing, f"README.md does not name: {missing}"
