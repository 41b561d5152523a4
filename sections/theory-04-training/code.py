# The code of section theory-04-training, which its four editions run; edit it here, then `make notebooks`.
# 3 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory

# %% glue [hide-cell]
p, tr, facts = r["parameters"], th["training"], th["facts"]
bd = facts["breakdown"]
page.glue("forward_pct", 100 * bd["forward"], 0)
page.glue("backward_pct", 100 * bd["backward"], 0)
page.glue("optimizer_pct", 100 * bd["optimizer"], 0)
page.glue("communication_pct", 100 * bd["communication"], 0)
page.glue("breakdown_serial_pct", 100 * tr["breakdown_serial"], 0)
page.glue("serial", p["th_serial_fraction"])
page.glue("parallel", 1 - p["th_serial_fraction"], 3)
page.glue("devices", p["th_devices"])
page.glue("amdahl_speedup", tr["speedup"], 2)
page.glue("days", p["th_single_device_days"])
page.glue("amdahl_days", tr["days"], 2)
page.glue("limit", tr["limit"], 2)
page.glue("colleague_days", facts["colleague_days"])
page.glue("colleague_speedup", tr["colleague_speedup"], 2)
page.glue("colleague_serial_pct", tr["colleague_serial_fraction"], 1, hundredths=True)
page.glue("gustafson_s", facts["gustafson_serial"], 2)
page.glue("gustafson", tr["gustafson_example"], 2)
page.glue("gustafson_same_s", tr["gustafson_same_s"], 2)
page.glue("gustafson_fixed_job_days", tr["gustafson_s_fixed_job_days"], 1)
page.glue("days_without_communication", th["checks"]["days_without_communication"], 0)

# %% figure-training-ledger [remove-input]
page.figure(figures.figure_training_ledger)

# %% figure-gustafson [remove-input]
page.figure(figures.figure_gustafson)
