# The code of section theory-09-checklist, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory

# %% glue [hide-cell]
# The exercises: the article's own model (model/parallel_theory.py) on cases it does not work out.
from model.parallel_theory import (PARALLEL_PARTS, amdahl, efficiency_example, gustafson,
                                   implied_serial_fraction, ledger_days, training)
p = r["parameters"]
s, n, days = p["th_serial_fraction"], p["th_devices"], p["th_single_device_days"]
page.glue("serial", s)
page.glue("devices", n)
page.glue("days", days)
# 1. The 30-day scenario, a fixed job (Amdahl), on four times as many devices.
ex1 = {**p, "th_devices": 4 * n}
ex1_run = training(ex1)
page.glue("ex1_devices", ex1["th_devices"], 0)
page.glue("ex1_speedup", ex1_run["speedup"], 2)
page.glue("ex1_efficiency_pct", 100 * efficiency_example(ex1)["amdahl_efficiency"], 1)
page.glue("ex1_days", ex1_run["days"], 2)
page.glue("ex1_days_on_scenario_devices", th["training"]["days"], 2)
page.glue("ex1_days_saved", th["training"]["days"] - ex1_run["days"], 2)
page.glue("ex1_serial_days", sum(part["n_devices_days"] for name, part in ledger_days(ex1).items()
                                 if name not in PARALLEL_PARTS), 2)
# 2. Two ways to speed the scenario up: twice the devices, or half the serial fraction.
ex2_more_devices = training({**p, "th_devices": 2 * n})
ex2_less_serial = training({**p, "th_serial_fraction": s / 2})
page.glue("ex2_doubled_devices", 2 * n, 0)
page.glue("ex2_halved_serial", s / 2, 3)
page.glue("ex2_days_doubled_devices", ex2_more_devices["days"], 2)
page.glue("ex2_days_halved_serial", ex2_less_serial["days"], 2)
page.glue("ex2_one_over_devices", 1 / n, 3)
# 3. The largest N whose efficiency stays at or above the article's E, for the smallest serial
#    fraction of the Amdahl table; E(N) = amdahl(S, N)/N falls as N grows.
ex3_serial, ex3_target = min(row["serial"] for row in th["table"]), p["th_efficiency"]
ex3_bound = 1 + (1 / ex3_target - 1) / ex3_serial     # where amdahl(S, N)/N = E
assert abs(amdahl(ex3_serial, ex3_bound) / ex3_bound - ex3_target) < 1e-9
ex3_devices = max(1, int(ex3_bound + 1e-9))            # the bound rounded down, then checked
while ex3_devices > 1 and amdahl(ex3_serial, ex3_devices) / ex3_devices < ex3_target - 1e-12:
    ex3_devices -= 1
page.glue("ex3_serial_pct", 100 * ex3_serial, 0)
page.glue("ex3_target_efficiency_pct", 100 * ex3_target, 1)
page.glue("ex3_bound", ex3_bound, 2)
page.glue("ex3_largest_devices", ex3_devices, 0)
page.glue("ex3_efficiency_at_largest_pct", 100 * amdahl(ex3_serial, ex3_devices) / ex3_devices, 1)
page.glue("ex3_one_more_devices", ex3_devices + 1, 0)
page.glue("ex3_efficiency_one_more_pct",
          100 * amdahl(ex3_serial, ex3_devices + 1) / (ex3_devices + 1), 1)
# 4. Gustafson's scaled speedup for exercise 1's S and N, and the single-device serial fraction
#    of the grown job that gives Amdahl's law the same speedup.
ex4_scaled = gustafson(s, ex1["th_devices"])
ex4_serial_one_device = implied_serial_fraction(ex4_scaled, ex1["th_devices"])
assert abs(amdahl(ex4_serial_one_device, ex1["th_devices"]) / ex4_scaled - 1) < 1e-9
page.glue("ex4_scaled_speedup", ex4_scaled, 2)
page.glue("ex4_single_device_serial_pct", 100 * ex4_serial_one_device, 2)
