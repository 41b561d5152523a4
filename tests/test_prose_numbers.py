"""Every number in the notebooks' prose is glued from experiment.run(), and every edition
glues and shows the same values."""
import pathlib

import pytest

from prose import glued_keys, markdown_cells, stray_numbers, used_keys

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(ROOT.glob("notebooks/*/*.ipynb")) + sorted(ROOT.glob("book/*/*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_number_is_typed_by_hand(path):
    stray = [(i, n) for i, text in enumerate(markdown_cells(path)) for n in stray_numbers(text)]
    assert not stray, f"numbers typed into prose (markdown cell index, number): {stray}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_glued_value_is_shown_and_every_shown_value_is_glued(path):
    used = set().union(*map(used_keys, markdown_cells(path)))
    glued = glued_keys(path)
    assert used <= glued, f"prose refers to keys no cell glues: {sorted(used - glued)}"
    assert glued <= used, f"glued but never shown in the prose: {sorted(glued - used)}"


@pytest.mark.parametrize("text, expected", [
    ("T₂ = {glue:text}`two_ms` ms", []),
    ("T₂ = 9.22 ms", ["9.22"]),
    ("una aceleración de 1,388", ["1,388"]),
    ("加速约 1.388 倍", ["1.388"]),
    ("x is 1 × 2, A is 2 × 4", []),
    ("arXiv, March 2020", []),
    ("$C/(2\\eta) + H$", []),
    ("$T_2 = 9.22$", ["9.22"]),
    ("float32 and T1", []),
    ("GPT-3 was trained", []),
    ("a gap of -3 ms", ["3"]),
    ("Q = 4 transfers", ["4"]),
])
def test_the_number_finder_itself(text, expected):
    assert stray_numbers(text) == expected
