# The code of section split-01-problem, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
page.glue("c_ms", r["parameters"]["c_ms"])
page.glue("half_c_ms", r["ledger"]["half_c_ms"])
