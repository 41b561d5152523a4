"""Article 3: parallel computing theory and the 30-day training scenario.

Pure functions, no I/O, in the article's order: Amdahl's law and its table, the training
scenario (serial fraction f = 0.2 on 8 devices), Gustafson's scaled speedup, parallel
efficiency (75 % on 8 devices), the memory arithmetic of the strategies section, and the
closing "30 days to 3" product of factors. Where the article's scenario meets well-known
external facts (a single A100's memory and throughput, GPT-3's training compute), those facts are named constants with their source.
"""
from __future__ import annotations

import math

from model.units import Parameter, log_grid, ring_factor, steps

#: The scenario's parameters, with the ranges the book accepts (see Parameter).
PARAMETERS = {
    "th_serial_fraction": Parameter(0.2, "f, the serial fraction", 0, 1),
    "th_devices": Parameter(8, "N, the number of devices", 1, 10**9, integer=True),
    "th_single_device_days": Parameter(30.0, "the single-device training time in days",
                                       1e-6, 1e6),
    "th_efficiency": Parameter(0.75, "E, the parallel efficiency", 0.01, 1),
}

EXAMPLE_SERIAL = 0.1                          # the worked example of Amdahl's law
EXAMPLE_DEVICES = (1, 2, 4, 8, 16)
TABLE_SERIAL = (0.05, 0.1, 0.2, 0.5, 0.9)     # the table's serial fractions
TABLE_DEVICES = (2, 4, 8, 16)                 # the table's device counts (plus the limit)
GUSTAFSON_SERIAL = 0.1                        # the article's Gustafson example
COLLEAGUE_DAYS = 5.0                          # the colleague's 8-device run
BREAKDOWN = {"forward": 0.4, "backward": 0.4, "optimizer": 0.1, "communication": 0.1}
PARALLEL_PARTS = ("forward", "backward")      # the article's split of the breakdown
TEN_X_FACTORS = {"gpu_vs_cpu": 20, "mixed_precision": 2, "data_parallel": 6,
                 "gradient_accumulation": 1.5, "activation_checkpointing": 1.5,
                 "nvlink": 1.2}
TEN_X_DAYS = (30.0, 3.0)                      # single device → many devices
#: Compute speed relative to a CPU, by the source's GPU-versus-CPU factor; the scenario's
#: baseline is one A100, a GPU, so that factor is already spent before the run starts.
DEVICE_SPEED_OVER_CPU = {"cpu": 1, "gpu": TEN_X_FACTORS["gpu_vs_cpu"]}
SCENARIO_BASELINE_DEVICE = "gpu"

# Memory arithmetic of the article (decimal GB).
PARAMETERS_175B = 175e9
BYTES_FP32, BYTES_FP16 = 4, 2
#: Mixed-precision training with Adam, per parameter: FP16 weights and gradients (2 + 2), FP32
#: master weights, momentum and variance (12) (Rajbhandari et al., ZeRO, 2020, section 3.1). The
#: book counts gradients this way in every chapter: FP16, two bytes each.
ADAM_BYTES_PER_PARAMETER = {"weights": 2, "gradients": 2, "optimizer": 12}
A100_MEMORY_GB = 80                           # the article's (and NVIDIA's) A100 80GB
CLAIMED_PARAMETERS_PER_A100 = 70e9

# Well-known external facts used to test the scenario (see the bibliography).
GPT3_TRAINING_FLOPS = 3.14e23                 # Brown et al. 2020, table D.1
A100_PEAK_FP16_FLOPS = 312e12                 # NVIDIA A100 datasheet, dense tensor FP16/BF16
WARP_THREADS = 32                             # NVIDIA: a warp is 32 threads
DAYS_PER_YEAR = 365.25
SECONDS_PER_DAY = 86400


def amdahl(serial: float, devices: float) -> float | None:
    """Speedup 1/(f + (1 − f)/N); for N = ∞ the limit 1/f (None when f = 0: no limit)."""
    if math.isinf(devices):
        return None if serial == 0 else 1 / serial
    return 1 / (serial + (1 - serial) / devices)


def gustafson(serial: float, devices: int) -> float:
    """Scaled speedup N + f(1 − N), f being the serial fraction of the scaled run."""
    return devices + serial * (1 - devices)


def implied_serial_fraction(speedup: float, devices: int) -> float:
    """The f for which Amdahl's law gives ``speedup`` on ``devices``: (N/speedup − 1)/(N − 1)."""
    return (devices / speedup - 1) / (devices - 1)


NO_LIMIT_REASON = "f = 0: with no serial part the speedup grows without limit"


def amdahl_table() -> list:
    """The article's table: speedup for each serial fraction and device count, and the limit."""
    return [{"serial": s, "speedups": [amdahl(s, n) for n in TABLE_DEVICES],
             "limit": amdahl(s, math.inf)} for s in TABLE_SERIAL]


def training(p: dict) -> dict:
    """The 30-day scenario on N devices: naive, Amdahl, what the colleague's 5 days imply."""
    s, n, days = p["th_serial_fraction"], p["th_devices"], p["th_single_device_days"]
    speedup = amdahl(s, n)
    colleague_speedup = days / COLLEAGUE_DAYS
    return {
        "naive_days": days / n,
        "speedup": speedup,
        "days": days / speedup,
        "limit": amdahl(s, math.inf),
        "limit_reason": NO_LIMIT_REASON if s == 0 else None,
        "colleague_speedup": colleague_speedup,
        "colleague_serial_fraction": implied_serial_fraction(colleague_speedup, n)
        if n > 1 else None,
        "colleague_serial_fraction_reason": None if n > 1 else
        "N = 1: one device has no serial fraction to infer from a speedup",
        "gustafson_example": gustafson(GUSTAFSON_SERIAL, n),
        "gustafson_same_s": gustafson(s, n),
        # the fixed job (the source: dataset and model fixed) with Gustafson's f: Amdahl's law
        "gustafson_s_fixed_job_days": days / amdahl(GUSTAFSON_SERIAL, n),
        "breakdown_serial": sum(v for k, v in BREAKDOWN.items() if k not in PARALLEL_PARTS),
    }


def ledger_days(p: dict) -> dict:
    """The stacked time ledger: each part of the breakdown on one device and on N devices.

    The serial fraction f is shared between optimizer and communication, and 1 − f between
    forward and backward, in the article's proportions (with f = 0.2: 40/40/10/10).
    """
    n, days, s = p["th_devices"], p["th_single_device_days"], p["th_serial_fraction"]
    parallel = sum(BREAKDOWN[k] for k in PARALLEL_PARTS)
    shares = {part: (1 - s) * share / parallel if part in PARALLEL_PARTS
              else s * share / (1 - parallel) for part, share in BREAKDOWN.items()}
    return {part: {"one_device_days": share * days,
                   "n_devices_days": share * days / (n if part in PARALLEL_PARTS else 1)}
            for part, share in shares.items()}


# The efficiency section's loss budget: communication 10–20 %, imbalance 5 %, synchronisation 5 %.
LOSSES = {"communication": (0.10, 0.20), "imbalance": 0.05, "synchronisation": 0.05}


def efficiency_example(p: dict) -> dict:
    """Efficiency E = speedup/N: 8 devices at 75 % give a speedup of 6 and 5 days; the loss
    budget's range; and what Amdahl's law with the scenario's f says the efficiency is."""
    n, e, days = p["th_devices"], p["th_efficiency"], p["th_single_device_days"]
    fixed = LOSSES["imbalance"] + LOSSES["synchronisation"]
    low, high = LOSSES["communication"]
    return {"speedup": n * e, "days": days / (n * e),
            "budget_low": 1 - high - fixed, "budget_high": 1 - low - fixed,
            "losses": {"communication_low": low, "communication_high": high,
                       "imbalance": LOSSES["imbalance"],
                       "synchronisation": LOSSES["synchronisation"]},
            "amdahl_efficiency": amdahl(p["th_serial_fraction"], n) / n}


def memory(p: dict) -> dict:
    """The memory arithmetic of the efficiency, strategies and closing sections, in GB (one 80 GB
    A100): the gradients as the source counts them (FP32) and as mixed precision keeps them
    (FP16, the book's accounting); what a ring all-reduce of each sends per device over the
    scenario's N devices; what pure data parallelism keeps on every device (the whole model:
    FP16 weights, then weights and gradients, then all of mixed-precision Adam's states); and the
    memory of all N devices together; and the bytes per value in FP32 and FP16 that these
    figures count."""
    n, size = p["th_devices"], ADAM_BYTES_PER_PARAMETER
    return {
        "fp32_bytes": BYTES_FP32, "fp16_bytes": BYTES_FP16,
        "gradients_fp32_gb": PARAMETERS_175B * BYTES_FP32 / 1e9,
        "gradients_fp16_gb": PARAMETERS_175B * size["gradients"] / 1e9,
        "weights_fp16_gb": PARAMETERS_175B * BYTES_FP16 / 1e9,
        "weights_and_gradients_gb": PARAMETERS_175B * (size["weights"] + size["gradients"]) / 1e9,
        "adam_states_gb": PARAMETERS_175B * sum(size.values()) / 1e9,
        "adam_bytes_per_parameter": sum(size.values()),
        "devices_memory_gb": n * A100_MEMORY_GB,
        "claimed_70b_fp16_gb": CLAIMED_PARAMETERS_PER_A100 * BYTES_FP16 / 1e9,
        "max_fp16_parameters_per_a100_billions": A100_MEMORY_GB * 1e9 / BYTES_FP16 / 1e9,
        "ring_bytes_per_device_gb": ring_factor(n) * PARAMETERS_175B * BYTES_FP32 / 1e9,
        "ring_fp16_bytes_per_device_gb": ring_factor(n) * PARAMETERS_175B * size["gradients"] / 1e9,
    }


def single_a100_reality() -> dict:
    """GPT-3's training compute on one A100 at its peak, in days and years (a lower bound)."""
    seconds = GPT3_TRAINING_FLOPS / A100_PEAK_FP16_FLOPS
    return {"days_at_peak": seconds / SECONDS_PER_DAY,
            "years_at_peak": seconds / SECONDS_PER_DAY / DAYS_PER_YEAR,
            "weights_fp16_over_memory": PARAMETERS_175B * BYTES_FP16 / 1e9 / A100_MEMORY_GB}


#: Training FLOPs per parameter per token: a layer's 72·b·s·h² (tp-04, forward and backward)
#: over its 12·h² weights, for b·s tokens.
TRAINING_FLOPS_PER_PARAMETER_TOKEN = 72 / 12


def variant_that_fits(p: dict) -> dict:
    """The scenario's one-A100 run made possible: the largest model whose mixed-precision Adam
    training state (ADAM_BYTES_PER_PARAMETER, 16 bytes a parameter) fits in the A100's 80 GB,
    before any activations, in billions of parameters; and the most tokens, in billions, that one
    A100 can train it on in the scenario's T(1) days at its dense FP16 peak (a rate no run
    sustains, so an upper bound), at TRAINING_FLOPS_PER_PARAMETER_TOKEN FLOPs a parameter a
    token."""
    parameters = A100_MEMORY_GB * 1e9 / sum(ADAM_BYTES_PER_PARAMETER.values())
    flops = A100_PEAK_FP16_FLOPS * p["th_single_device_days"] * SECONDS_PER_DAY
    return {"parameters_b": parameters / 1e9,
            "state_gb": parameters * sum(ADAM_BYTES_PER_PARAMETER.values()) / 1e9,
            "tokens_b_at_peak": flops / (TRAINING_FLOPS_PER_PARAMETER_TOKEN * parameters) / 1e9,
            "flops_per_parameter_token": TRAINING_FLOPS_PER_PARAMETER_TOKEN}


#: The backward pass against the forward, in FLOPs: twice (two matrix products per weight product
#: of the forward pass), as Narayanan et al. 2021 count it in the 72·b·s·h² that tp-04 uses.
BACKWARD_OVER_FORWARD = 2


def ten_x() -> dict:
    """The closing estimate: the product of the six factors against 30 days → 3 days; what the
    GPU-versus-CPU factor gives a run whose baseline is already a GPU; and the speed of a step
    with activation checkpointing, which repeats the forward pass during the backward pass: with
    the forward pass's share of the source's breakdown (forward and backward equal), and with the
    same compute share split one to BACKWARD_OVER_FORWARD."""
    compute = BREAKDOWN["forward"] + BREAKDOWN["backward"]
    return {"product": math.prod(TEN_X_FACTORS.values()),
            "gpu_factor_over_baseline": DEVICE_SPEED_OVER_CPU["gpu"]
            / DEVICE_SPEED_OVER_CPU[SCENARIO_BASELINE_DEVICE],
            "checkpointing_step_speed": 1 / (1 + BREAKDOWN["forward"]),
            "forward_share_backward_twice": compute / (1 + BACKWARD_OVER_FORWARD),
            "checkpointing_step_speed_backward_twice":
                1 / (1 + compute / (1 + BACKWARD_OVER_FORWARD)),
            "product_without_gpu_vs_cpu": math.prod(
                v for k, v in TEN_X_FACTORS.items() if k != "gpu_vs_cpu"),
            "days_before": TEN_X_DAYS[0], "days_after": TEN_X_DAYS[1],
            "achieved": TEN_X_DAYS[0] / TEN_X_DAYS[1]}


def sweeps() -> dict:
    """Amdahl's speedup against N for the table's serial fractions; Amdahl against Gustafson."""
    devices = [round(n, 6) for n in log_grid(1, 1024, 61)]
    return {
        "devices": devices,
        "amdahl": {str(s): [amdahl(s, n) for n in devices] for s in TABLE_SERIAL},
        "gustafson_devices": list(range(1, 33)),
        "gustafson": [gustafson(GUSTAFSON_SERIAL, n) for n in range(1, 33)],
        "amdahl_same_s": [amdahl(GUSTAFSON_SERIAL, n) for n in range(1, 33)],
    }


#: The example of the serial-parallel section: four equal tasks on four devices (time units).
UNIT_TASKS = (1.0, 1.0, 1.0, 1.0)


def checks(p: dict) -> dict:
    """The quantities that decide the article's sentences about its scenario (model/claims.py):
    its parallel-time formula max(tᵢ)/N against the time four equal tasks take on four devices;
    the communication of a single device; the 8-device run with no communication at all."""
    n = len(UNIT_TASKS)
    days = ledger_days(p)
    return {
        "max_over_n_formula": max(UNIT_TASKS) / n,            # the article's T(N) = max(tᵢ)/N
        "unit_tasks_parallel_time": max(UNIT_TASKS),          # each device runs one task
        # A ring all-reduce moves 2(N − 1)/N of the gradients per device: nothing for N = 1.
        "single_device_communication_share": ring_factor(1),
        "days_without_communication": sum(part["n_devices_days"] for name, part in days.items()
                                          if name != "communication"),
    }


def sentence_checks(table: list, sweep: dict) -> dict:
    """Quantities that decide the article's sentences (model/claims.py), from the Amdahl table
    and the sweeps (``amdahl_table()``, ``sweeps()``): the largest change, from one serial
    fraction of the table to the next, of what going from 2 to 16 devices buys
    (Speedup(16) − Speedup(2)); the smallest lead of Gustafson's scaled speedup over Amdahl's
    at the Gustafson example's f, for N = 2 … 32."""
    gains = [row["speedups"][-1] - row["speedups"][0] for row in table]
    return {
        "largest_gain_change_with_serial": max(steps(gains)),
        "smallest_gustafson_lead": min(g - a for n, g, a in zip(
            sweep["gustafson_devices"], sweep["gustafson"], sweep["amdahl_same_s"]) if n >= 2),
    }


def results(p: dict) -> dict:
    """Every result of the article for parameters ``p`` (already validated)."""
    table, sweep = amdahl_table(), sweeps()
    return {
        "example": [{"devices": n, "speedup": amdahl(EXAMPLE_SERIAL, n)}
                    for n in EXAMPLE_DEVICES]
        + [{"devices": None, "speedup": amdahl(EXAMPLE_SERIAL, math.inf),
            "reason": "N → ∞: the speedup's limit 1/f"}],
        "table": table,
        "training": training(p),
        "ledger_days": ledger_days(p),
        "efficiency": efficiency_example(p),
        "memory": memory(p),
        "single_a100": single_a100_reality(),
        "variant": variant_that_fits(p),
        "ten_x": ten_x(),
        "sentence_checks": sentence_checks(table, sweep),
        "checks": checks(p),
        "facts": {"warp_threads": WARP_THREADS, "gpt3_training_flops": GPT3_TRAINING_FLOPS,
                  "a100_peak_flops": A100_PEAK_FP16_FLOPS, "a100_memory_gb": A100_MEMORY_GB,
                  "parameters_b": PARAMETERS_175B / 1e9, "colleague_days": COLLEAGUE_DAYS,
                  "breakdown": BREAKDOWN, "ten_x_factors": TEN_X_FACTORS,
                  "example_serial": EXAMPLE_SERIAL,
                  "gustafson_serial": GUSTAFSON_SERIAL},
        "sweeps": sweep,
    }
