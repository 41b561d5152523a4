# The code of section tp-09-applications, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
sc, links, an = tp["scenarios"], tp["links"], tp["anecdote"]
claims = {c["id"]: c for c in experiment.claims()}
page.glue("cluster_devices", sc["cluster_devices"], 0)
page.glue("oversized_tp_a", sc["oversized_degrees"][0], 0)
page.glue("oversized_tp_b", sc["oversized_degrees"][1], 0)
page.glue("throughput_loss_pct", 100 * sc["throughput_loss"], 0)
page.glue("throughput_loss_tp16_pct", 100 * tp["scaling_checks"]["throughput_loss_vs_8"]["16"], 0)
# both degrees leave their node: decided under both assumptions on the network between nodes
across = tp["scaling_checks"]["across_nodes"]
one, every = across["one_nic"], across["all_nics"]
page.glue("nics_per_node", every["nics"])
page.glue("one_nic_cut", one["nvlink_over_network"])
page.glue("all_nics_cut", every["nvlink_over_network"])
page.glue("network_b_one_nic_gb_per_s", one["bandwidth_gb_per_s"], 0)
page.glue("network_b_all_nics_gb_per_s", every["bandwidth_gb_per_s"], 0)
page.glue("loss_tp16_one_nic_pct", 100 * one["throughput_loss_vs_8"]["16"], 0)
page.glue("loss_tp32_one_nic_pct", 100 * one["throughput_loss_vs_8"]["32"], 0)
page.glue("loss_tp16_all_nics_pct", 100 * every["throughput_loss_vs_8"]["16"], 0)
page.glue("loss_tp32_all_nics_pct", 100 * every["throughput_loss_vs_8"]["32"], 0)
page.glue("all_nics_busbw_gb_per_s", every["measured_busbw_gb_per_s"])
page.glue("one_nic_busbw_gb_per_s", one["measured_busbw_gb_per_s"])
page.glue("anecdote_devices", sc["anecdote_devices"], 0)
page.glue("anecdote_parameters_b", sc["anecdote_parameters_b"], 0)
page.glue("tp_before", sc["anecdote_tp_before"], 0)
page.glue("tp_after", sc["anecdote_tp_after"], 0)
page.glue("dp_after", sc["anecdote_dp_after"], 0)
page.glue("mfu_before_pct", 100 * an["before"], 0)
page.glue("mfu_after_pct", 100 * an["after"], 0)
page.glue("time_saved_pct", 100 * an["time_saved"], 1)
page.glue("stated_time_saved_pct", 100 * claims["anecdote_time_saved"]["stated"], 0)
memory = an["memory"]   # the layout after the switch, with no pipeline (external facts)
page.glue("params_per_device_b", memory["parameters_per_device"] / 1e9, 3)
page.glue("adam_bytes", memory["bytes_per_parameter"])
page.glue("states_gb", memory["model_states_gb"], 0)
page.glue("weights_gb", memory["weights_gb"], 2)
page.glue("sharded_gb", memory["sharded_states_gb"], 1)
page.glue("device_memory_gb", memory["device_memory_gb"], 0)
page.glue("overlap_gain_low_pct", 100 * sc["overlap_gain"][0], 0)
page.glue("overlap_gain_high_pct", 100 * sc["overlap_gain"][1], 0)
page.glue("case_hidden", sc["case_hidden"], 0)
page.glue("case_t", sc["gpus_per_node"], 0)
page.glue("nvlink_gb_per_s", links["nvlink"]["bandwidth_gb_per_s"])
page.glue("pcie_gb_per_s", links["pcie"]["bandwidth_gb_per_s"], 0)
page.glue("share_nvlink_pct", 100 * links["nvlink"]["comm_share"], 1)
page.glue("share_pcie_pct", 100 * links["pcie"]["comm_share"], 1)
page.glue("stated_share_nvlink_pct", 100 * claims["links_nvlink_share"]["stated"], 0)
page.glue("stated_share_pcie_pct", 100 * claims["links_pcie_share"]["stated"], 0)
page.glue("eff_nvlink_pct", 100 * links["nvlink"]["efficiency"], 1)
page.glue("eff_pcie_pct", 100 * links["pcie"]["efficiency"], 1)
page.glue("efficiency_ratio", links["efficiency_ratio"], 2)
page.glue("pcie4_gb_per_s", links["pcie_x16_gb_per_s"]["pcie4"], 0)
page.glue("pcie5_gb_per_s", links["pcie_x16_gb_per_s"]["pcie5"], 0)

# %% table [remove-input]
page.table(["B (GB/s)", "R (t = 8)", "R/(1 + R)", "1/(1 + R)"],
           [[page.cell(links[k]["bandwidth_gb_per_s"], 0), page.cell(links[k]["ratio"], 3),
             page.cell(links[k]["comm_share"], 3), page.cell(links[k]["efficiency"], 3)]
            for k in ("nvlink", "pcie")])
