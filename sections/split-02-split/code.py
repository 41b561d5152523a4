# The code of section split-02-split, which its four editions run; edit it here, then `make notebooks`.
# 4 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
m = r["matrix"]
dev1, dev2 = m["devices"]
page.glue("dev1_pre", dev1["pre_activation"])
page.glue("dev1_contribution", dev1["contribution"])
page.glue("dev2_pre", dev2["pre_activation"])
page.glue("dev2_contribution", dev2["contribution"])
page.glue("full", m["full"])
page.glue("hidden", m["hidden"])
page.glue("relu_a", m["relu_counterexample"]["a"], 0)
page.glue("relu_b", m["relu_counterexample"]["b"], 0)
page.glue("relu_b_abs", abs(m["relu_counterexample"]["b"]), 0)
page.glue("relu_of_sum", m["relu_counterexample"]["relu_of_sum"], 0)
page.glue("sum_of_relus", m["relu_counterexample"]["sum_of_relus"], 0)
page.glue("wrong_hidden", m["wrong_split"]["hidden"])
page.glue("wrong_output", m["wrong_split"]["output"])

# %% table [remove-input]
page.table(["x", "U", "W"],
           [["<br>".join(page.vec(row) for row in m[name]) for name in ("x", "u", "w")]])

# %% table-2 [remove-input]
page.table(["device", "columns", "pre_activation", "ReLU", "contribution"],
           [[i + 1, ", ".join(str(j + 1) for j in d["columns"]), page.vec(d["pre_activation"]),
             page.vec(d["hidden"]), page.vec(d["contribution"])] for i, d in enumerate(m["devices"])]
           + [["Σ", "", "", "", page.vec(m["sum_of_contributions"])]])
assert m["split_matches"] and not m["wrong_split"]["matches"]

# %% figure-split-blocks [remove-input]
page.figure(figures.figure_split_blocks)
