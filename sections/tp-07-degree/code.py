# The code of section tp-07-degree, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
crit, claims = tp["critical"], {c["id"]: c for c in experiment.claims()}
page.glue("gpus_per_node", tp["scenarios"]["gpus_per_node"])
page.glue("nvlink_gb_per_s", tp["links"]["nvlink"]["bandwidth_gb_per_s"])
nodes = tp["links"]["between_nodes"]
page.glue("a100_nvlink_one_way_gb_per_s", nodes["a100"]["nvlink_gb_per_s"])
page.glue("a100_network_gb_per_s", nodes["a100"]["network_gb_per_s"])
page.glue("a100_adapter_gbit_per_s", nodes["a100"]["network_gbit_per_s"])
page.glue("a100_nvlink_over_network", nodes["a100"]["nvlink_over_network"], 1)
page.glue("a100_nvlink_two_way_gb_per_s", tp["links"]["a100_nvlink_gb_per_s"])
page.glue("h100_nvlink_one_way_gb_per_s", nodes["h100"]["nvlink_gb_per_s"])
page.glue("h100_network_gb_per_s", nodes["h100"]["network_gb_per_s"])
page.glue("h100_nvlink_over_network", nodes["h100"]["nvlink_over_network"], 1)
page.glue("a_ms", crit["a_ms"])
page.glue("tp_comm_ms", crit["c_ms"])
page.glue("t_star", crit["t_star"], 1)
page.glue("e_t_star_pct", 100 * crit["efficiency_at_t_star"], 0)
page.glue("e_half_t_star_pct", 100 * crit["efficiency_at_half_t_star"], 1)
page.glue("stated_half_t_star_pct", 100 * claims["efficiency_at_half_t_star"]["stated"], 0)
