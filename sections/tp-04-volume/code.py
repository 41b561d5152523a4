# The code of section tp-04-volume, which its four editions run; edit it here, then `make notebooks`.
# 3 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
p, row8 = r["parameters"], tp["demo"][3]
page.glue("collectives", tp["collectives_per_layer"])
page.glue("layer_comm_bytes", tp["layer_comm_bytes"], 0)
page.glue("layer_comm_mb", tp["layer_comm_bytes"] / 1e6, 1)
page.glue("layer_tflop", tp["layer_flops"] / 1e12, 2)
page.glue("p_tflops", p["tp_flops_per_s"] / 1e12, 0)
page.glue("tp_b_gb_per_s", p["tp_bandwidth_bytes_per_s"] / 1e9)
page.glue("t", row8["t"], 0)
page.glue("calc_ms", row8["calc_ms"], 3)
page.glue("tp_comm_ms", row8["comm_ms"])
page.glue("ratio", row8["ratio"], 3)
page.glue("ratio_check", row8["ratio_check"], 3)
page.glue("t2", tp["demo"][1]["t"])
page.glue("ring_t2", tp["demo"][1]["ring_factor"])
page.glue("ring_t8", row8["ring_factor"])
page.glue("ring_t32", tp["demo"][-1]["ring_factor"])
page.glue("ring_comm_t8_ms", row8["ring_comm_ms"], 3)

# %% figure-megatron-layer [remove-input]
page.figure(figures.figure_megatron_layer)

# %% by-hand
# R at the demo's degree, two ways (model/tensor_parallel.py)
from model.tensor_parallel import calc_s, comm_s, ratio
t_demo = row8["t"]
calc_ms = calc_s(p, t_demo) * 1e3   # 72·b·s·h²/(t·P), in ms
comm_ms = comm_s(p) * 1e3           # 4·b·s·h·d/B, in ms
print(f"t = {t_demo}: T_calc = {calc_ms:.4g} ms, T_comm = {comm_ms:.4g} ms")
print(f"T_comm/T_calc = {comm_ms / calc_ms:.4g}")
print(f"t·P·d/(18·h·B) = {ratio(p, t_demo):.4g}")

# %% table [remove-input]
page.table(["t", "4·b·s·h·d/B (ms)", "2(t−1)/t", "2(t−1)/t · 4·b·s·h·d/B (ms)"],
           [[row["t"], page.cell(row["comm_ms"], 3), page.cell(row["ring_factor"], 4),
             page.cell(row["ring_comm_ms"], 3)] for row in tp["demo"]])
