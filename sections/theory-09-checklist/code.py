# The code of section theory-09-checklist, which its four editions run; edit it here, then `make notebooks`.
# 0 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory
