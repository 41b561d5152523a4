# The code of section split-05-latency, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
led = r["ledger"]
large = next(c for c in r["cases"] if c["name"] == "large_s")
page.glue("speedup", led["speedup"])
page.glue("efficiency", led["efficiency"], 3)
page.glue("idle_percent", 100 * (1 - round(led["efficiency"], 3)), 1)
page.glue("large_s_ms", large["s_ms"], 6)
page.glue("c_ms", large["c_ms"])
page.glue("b_gb_per_s", large["b_bytes_per_s"] / 1e9)
page.glue("large_one_ms", large["one_ms"], 6)
page.glue("large_two_ms", large["two_ms"], 6)
page.glue("large_speedup", large["speedup"], 3)

# %% table [remove-input]
page.table(["case", "T₁/T₂", "T₁/(2·T₂)"],
           [[page.case_label(c), page.cell(c["speedup"], 3), page.cell(c["speedup"] / 2, 3)]
            for c in r["cases"]])
