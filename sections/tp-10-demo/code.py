# The code of section tp-10-demo, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
p, demo = r["parameters"], tp["demo"]
claims = {c["id"]: c for c in experiment.claims()}
page.glue("p_pflops", p["tp_flops_per_s"] / 1e15, 3)
page.glue("tp_b_gb_per_s", p["tp_bandwidth_bytes_per_s"] / 1e9)
page.glue("a100_nvlink_gb_per_s", tp["links"]["a100_nvlink_gb_per_s"], 0)
page.glue("a100_one_way_gb_per_s", tp["links"]["a100_nvlink_per_direction_gb_per_s"], 0)
page.glue("h", p["tp_hidden"])
page.glue("s", p["tp_seq_len"])
page.glue("b", p["tp_batch"])
page.glue("d", p["tp_bytes_per_value"])
page.glue("t_min", demo[0]["t"])
page.glue("t_max", demo[-1]["t"])
page.glue("e_t1_pct", 100 * demo[0]["efficiency"], 1)
page.glue("e_tmax_pct", 100 * demo[-1]["efficiency"], 1)
page.glue("standard_e_t1_pct", 100 * demo[0]["standard_efficiency"], 0)
page.glue("stated_e_t1_pct", 100 * claims["demo_efficiency_t1"]["stated"], 0)
page.glue("stated_e_tmax_pct", 100 * claims["demo_efficiency_t32"]["stated"], 0)
page.glue("ring_e_tmax_pct", 100 * demo[-1]["ring_efficiency"], 1)
prec, h100 = tp["precision"], tp["links"]["between_nodes"]["h100"]
page.glue("a100_fp32_tflops", prec["peaks_tflops"]["a100"]["fp32"], 1)
page.glue("a100_bf16_tflops", prec["peaks_tflops"]["a100"]["bf16"], 0)
page.glue("h100_fp32_tflops", prec["peaks_tflops"]["h100"]["fp32"], 0)
page.glue("h100_bf16_tflops", prec["peaks_tflops"]["h100"]["bf16"], 0)
page.glue("bf16_d", prec["bf16_bytes_per_value"], 0)
page.glue("bf16_ratio_t8", prec["bf16_ratio"], 3)
page.glue("bf16_efficiency_t8_pct", 100 * prec["bf16_efficiency"], 1)
page.glue("t8", demo[3]["t"])
page.glue("h100_nvlink_one_way_gb_per_s", h100["nvlink_gb_per_s"])
page.glue("h100_nvlink_both_ways_gb_per_s", h100["nvlink_both_ways_gb_per_s"])

# %% table [remove-input]
page.table(["TP", "T_calc (ms)", "T_comm (ms)", "T (ms)", "E", "T(1)/(t·T(t))", page.word("e_ring")],
           [[row["t"], page.cell(row["calc_ms"], 3), page.cell(row["comm_ms"], 3),
             page.cell(row["total_ms"], 3), page.cell_pct(row["efficiency"], 1),
             page.cell_pct(row["standard_efficiency"], 1), page.cell_pct(row["ring_efficiency"], 1)]
            for row in demo])
