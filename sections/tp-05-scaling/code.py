# The code of section tp-05-scaling, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
k1, k4, k32 = tp["kitchen"]
crit = tp["critical"]
page.glue("chef_a_min", k1["cook_min"], 2)
page.glue("chef_c_min", k1["total_min"] - k1["cook_min"], 2)
page.glue("chef_t4", k4["t"], 0)
page.glue("chef_t4_cook", k4["cook_min"], 2)
page.glue("chef_t4_total", k4["total_min"], 2)
page.glue("chef_t32", k32["t"], 0)
page.glue("chef_t32_cook", k32["cook_min"], 2)
page.glue("chef_t32_cook_exact", k32["cook_min"], 4)
page.glue("chef_t32_total", k32["total_min"], 4)
page.glue("chef_e4_pct", 100 * k4["efficiency"], 1)
page.glue("chef_e32_pct", 100 * k32["efficiency"], 1)
page.glue("a_ms", crit["a_ms"])
page.glue("tp_comm_ms", crit["c_ms"])
page.glue("e_t32_pct", 100 * tp["demo"][-1]["efficiency"], 1)
page.glue("ring_e_t32_pct", 100 * tp["demo"][-1]["ring_efficiency"], 1)

# %% figure-tp-efficiency [remove-input]
page.figure(figures.figure_tp_efficiency)
