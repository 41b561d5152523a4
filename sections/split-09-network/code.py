# The code of section split-09-network, which its four editions run; edit it here, then `make notebooks`.
# 3 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
p, bw = r["parameters"], r["bandwidth"]
low, high = r["efficiency_threshold"][1], r["efficiency_threshold"][0]
page.glue("c_s", p["c_ms"] / 1000, 6)
page.glue("d_s", bw["d_s"], 6)
page.glue("min_b_gb_per_s", bw["b_gb_per_s"], 5)
page.glue("c_ms", high["c_ms"])
page.glue("comm_ms", high["comm_ms"])
page.glue("min_eta_high", high["min_eta"], 5)
page.glue("low_c_ms", low["c_ms"], 6)
page.glue("min_eta_low", low["min_eta"], 5)
page.glue("eta_max", 1.0, 0)

# %% table [remove-input]
page.table(["C (ms)", "H (ms)", "η >"],
           [[page.cell(t["c_ms"], 2), page.cell(t["comm_ms"], 2),
             page.cell(t["min_eta"], 5) if t["min_eta"] is not None else page.word("none")]
            for t in r["efficiency_threshold"]])

# %% figure-min-eta [remove-input]
page.figure(figures.figure_min_eta)
