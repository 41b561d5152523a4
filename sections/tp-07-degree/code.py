# The code of section tp-07-degree, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
crit, claims = tp["critical"], {c["id"]: c for c in experiment.claims()}
page.glue("gpus_per_node", tp["scenarios"]["gpus_per_node"])
page.glue("nvlink_gb_per_s", tp["links"]["nvlink"]["bandwidth_gb_per_s"])
page.glue("a_ms", crit["a_ms"])
page.glue("tp_comm_ms", crit["c_ms"])
page.glue("t_star", crit["t_star"], 1)
page.glue("e_t_star_pct", 100 * crit["efficiency_at_t_star"], 0)
page.glue("e_half_t_star_pct", 100 * crit["efficiency_at_half_t_star"], 1)
page.glue("stated_half_t_star_pct", 100 * claims["efficiency_at_half_t_star"]["stated"], 0)
