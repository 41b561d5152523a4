# The code of section split-06-overlap, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
page.glue("bound_ms", r["overlap"]["bound_ms"], 6)
page.glue("two_ms", r["overlap"]["two_ms"])
page.glue("parallel_compute_ms", r["ledger"]["parallel_compute_ms"])
page.glue("comm_ms", r["ledger"]["comm_ms"])

# %% table [remove-input]
led = r["ledger"]
page.table(["", "ms"],
           [["C/(2η)", page.cell(led["parallel_compute_ms"], 2)], ["H", page.cell(led["comm_ms"], 2)],
            ["T₂ = S + C/(2η) + H", page.cell(led["two_ms"], 2)],
            ["S + max[C/(2η), H]", page.cell(r["overlap"]["bound_ms"], 2)]])
