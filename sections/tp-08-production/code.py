# The code of section tp-08-production, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
row8, row32 = tp["demo"][3], tp["demo"][-1]
claims = {c["id"]: c for c in experiment.claims()}
page.glue("gpus_per_node", tp["scenarios"]["gpus_per_node"])
page.glue("pipeline_activation_mb", tp["pipeline_boundary"]["activation_mb"], 0)
page.glue("collectives", tp["collectives_per_layer"])
page.glue("t8", row8["t"])
page.glue("t32", row32["t"])
page.glue("ratio_t8", row8["ratio"], 3)
page.glue("ratio_t32", row32["ratio"], 3)
page.glue("mu_t8_pct", 100 * row8["utilisation"], 1)
page.glue("mu_t32_pct", 100 * row32["utilisation"], 1)
page.glue("stated_mu_t32_pct", 100 * claims["utilisation_tp32_all_nics"]["stated"], 0)
# TP = 32 leaves its node: decided under both assumptions on the network between nodes
across = tp["scaling_checks"]["across_nodes"]
one, every = across["one_nic"], across["all_nics"]
page.glue("nodes_t32", row32["t"] // tp["scenarios"]["gpus_per_node"])
page.glue("nics_per_node", every["nics"])
page.glue("one_nic_cut", one["nvlink_over_network"])
page.glue("all_nics_cut", every["nvlink_over_network"])
page.glue("one_nic_gb_per_s", one["network_gb_per_s"], 0)
page.glue("nvlink_one_way_gb_per_s", tp["links"]["between_nodes"]["a100"]["nvlink_gb_per_s"], 0)
page.glue("all_nics_gb_per_s", every["network_gb_per_s"], 0)
page.glue("one_nic_busbw_gb_per_s", one["measured_busbw_gb_per_s"])
page.glue("all_nics_busbw_gb_per_s", every["measured_busbw_gb_per_s"])
page.glue("ratio_t32_one_nic", one["ratio"]["32"], 2)
page.glue("ratio_t32_all_nics", every["ratio"]["32"], 2)
page.glue("mu_t32_one_nic_pct", 100 * one["utilisation"]["32"], 1)
page.glue("mu_t32_all_nics_pct", 100 * every["utilisation"]["32"], 1)

# %% table [remove-input]
page.table(["t", "R", "μ = 1/(1 + R)"],
           [[row["t"], page.cell(row["ratio"], 3), page.cell(row["utilisation"], 3)] for row in tp["demo"]])
