# The code of section tp-06-optimisation, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
row8, row32 = tp["demo"][3], tp["demo"][-1]
page.glue("t8", row8["t"])
page.glue("calc_t8_ms", row8["calc_ms"], 3)
page.glue("total_t8_ms", row8["total_ms"], 3)
page.glue("overlap_t8_ms", row8["overlap_ms"], 3)
page.glue("t32", row32["t"])
page.glue("calc_t32_ms", row32["calc_ms"], 3)
page.glue("total_t32_ms", row32["total_ms"], 3)
page.glue("overlap_t32_ms", row32["overlap_ms"], 3)
page.glue("tp_comm_ms", row8["comm_ms"])

# %% table [remove-input]
page.table(["t", "T_calc (ms)", "T_comm (ms)", "T_calc + T_comm (ms)", "max(T_calc, T_comm) (ms)"],
           [[row["t"], page.cell(row["calc_ms"], 3), page.cell(row["comm_ms"], 3),
             page.cell(row["total_ms"], 3), page.cell(row["overlap_ms"], 3)] for row in tp["demo"]])

# %% figure-overlap-timeline [remove-input]
page.figure(figures.figure_overlap_timeline)
