# The code of section tp-02-visual, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
demo = tp["demo"]
page.glue("t_min", demo[0]["t"])
page.glue("t_max", demo[-1]["t"])
page.glue("calc_t1_ms", demo[0]["calc_ms"], 2)
page.glue("calc_tmax_ms", demo[-1]["calc_ms"], 3)
page.glue("tp_comm_ms", demo[0]["comm_ms"])

# %% figure-tp-layer-time [remove-input]
page.figure(figures.figure_tp_layer_time)
