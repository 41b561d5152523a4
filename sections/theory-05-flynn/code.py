# The code of section theory-05-flynn, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory

# %% glue [hide-cell]
page.glue("warp_threads", th["facts"]["warp_threads"], 0)
