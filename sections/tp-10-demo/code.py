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

# %% table
page.table(["TP", "T_calc (ms)", "T_comm (ms)", "T (ms)", "E", "T(1)/(t·T(t))", page.word("e_ring")],
           [[row["t"], page.num(row["calc_ms"], 3), page.num(row["comm_ms"], 3),
             page.num(row["total_ms"], 3), page.pct(row["efficiency"], 1),
             page.pct(row["standard_efficiency"], 1), page.pct(row["ring_efficiency"], 1)]
            for row in demo])
