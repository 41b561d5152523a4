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
page.glue("stated_mu_t32_pct", 100 * claims["utilisation_tp32"]["stated"], 0)
across = tp["scaling_checks"]["across_nodes"]
page.glue("nodes_t32", row32["t"] // tp["scenarios"]["gpus_per_node"])
page.glue("ratio_t32_across", across["ratio"]["32"], 2)
page.glue("mu_t32_across_pct", 100 * across["utilisation"]["32"], 1)
page.glue("a100_nvlink_over_network", tp["links"]["between_nodes"]["a100"]["nvlink_over_network"])

# %% table
page.table(["t", "R", "μ = 1/(1 + R)"],
           [[row["t"], page.cell(row["ratio"], 3), page.cell(row["utilisation"], 3)] for row in tp["demo"]])
