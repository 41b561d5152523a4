# The code of section theory-06-efficiency, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory

# %% glue [hide-cell]
p, eff, mem = r["parameters"], th["efficiency"], th["memory"]
page.glue("fp32_bytes", mem["fp32_bytes"])
page.glue("fp16_bytes", mem["fp16_bytes"])
page.glue("devices", p["th_devices"])
page.glue("efficiency_pct", 100 * p["th_efficiency"], 1)
page.glue("efficiency_speedup", eff["speedup"], 2)
page.glue("days", p["th_single_device_days"])
page.glue("efficiency_days", eff["days"], 2)
page.glue("parameters_b", th["facts"]["parameters_b"])
page.glue("gradients_fp32_gb", mem["gradients_fp32_gb"], 0)
page.glue("ring_fp32_gb", mem["ring_bytes_per_device_gb"], 0)
page.glue("gradients_fp16_gb", mem["gradients_fp16_gb"], 0)
page.glue("ring_fp16_gb", mem["ring_fp16_bytes_per_device_gb"], 1)
page.glue("comm_low_pct", 100 * eff["losses"]["communication_low"], 0)
page.glue("comm_high_pct", 100 * eff["losses"]["communication_high"], 0)
page.glue("imbalance_pct", 100 * eff["losses"]["imbalance"], 0)
page.glue("sync_pct", 100 * eff["losses"]["synchronisation"], 0)
page.glue("budget_low_pct", 100 * eff["budget_low"], 0)
page.glue("budget_high_pct", 100 * eff["budget_high"], 0)
page.glue("serial", p["th_serial_fraction"])
page.glue("amdahl_efficiency_pct", 100 * eff["amdahl_efficiency"], 1)
