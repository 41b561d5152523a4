# The code of section split-10-answer, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
be = r["break_even"]
page.glue("break_even_c_ms", be["c_ms"])
page.glue("c_ms", r["parameters"]["c_ms"])
page.glue("speedup", r["ledger"]["speedup"])
