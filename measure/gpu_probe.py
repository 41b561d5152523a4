"""Article 1's stage on one GPU: what a single device can measure of the split, by the same
worker code that a run on several GPUs uses (NCCL group started with ``device_id`` after
``set_device``, CUDA events, the rows scaled until C lasts ``MIN_C_MS``, the GPU environment).

    torchrun --standalone --nproc-per-node 1 -m measure.gpu_probe --out gpu-probe.json

One GPU cannot measure an all-reduce between two devices, so this probe takes the parts of the
ledger that need only one: S, C and one share of C cut n ways (n = 2, 4, 8), whose time is the
time each of n identical devices would spend on its share; from it η_n = C / (n · t_share), the
efficiency the ledger's C/(nη) charges. It does so with TF32 off (true FP32) and on, because
TF32 changes the matrix products' rate, and over the article's hidden widths at the scaled
rows. Times in ms (medians of the steady repetitions; each sample lasts at least
``worker.MIN_SAMPLE_MS``). The record is checked by ``analysis.check_probe`` and written
atomically; the book shows data/measurements/gpu-probe-h200.json in split-08.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import torch
import torch.distributed as dist

from measure import analysis, worker

PARTS = (2, 4, 8)
PLAN = {"warmup": 5, "repeats": 30, "sweep_repeats": 15}


def medians(samples: dict) -> dict:
    """name → the median of its steady repetitions (ms)."""
    return {name: analysis.summary(times)["median_ms"] for name, times in samples.items()}


def at_precision(ranks: worker.Ranks, tf32: bool) -> dict:
    """S, C, T₁ and one share of C cut n ways, at rows scaled for this precision; η_n; and C
    and a half over the article's widths at those rows."""
    torch.set_float32_matmul_precision("high" if tf32 else "highest")   # TF32 or IEEE fp32
    shapes = worker.scaled_shapes(ranks)
    whole = worker.Stage(ranks, shapes["hidden"], shapes)
    x0 = whole.s()
    shares = {n: worker.Stage(ranks, shapes["hidden"], shapes, parts=n) for n in PARTS}
    runs = {"s": (whole.s, True), "c": (lambda: whole.c(x0), True),
            "one": (whole.one, True)}
    runs |= {f"share_{n}": (lambda stage=stage: stage.half(x0), True)
             for n, stage in shares.items()}
    samples = ranks.timed(runs, PLAN["warmup"], PLAN["repeats"])
    main = {name: analysis.summary(times) for name, times in samples.items()}
    eta = {str(n): main["c"]["median_ms"] / (n * main[f"share_{n}"]["median_ms"])
           for n in PARTS}
    widths = {"hidden": [], "c_ms": [], "half_ms": [], "eta_2": []}
    for hidden in worker.FULL["hidden_sweep"]:
        stage, half = worker.Stage(ranks, hidden, shapes), worker.Stage(ranks, hidden, shapes, 2)
        x = stage.s()
        times = medians(ranks.timed({"c": (lambda: stage.c(x), True),
                                     "half": (lambda: half.half(x), True)},
                                    PLAN["warmup"], PLAN["sweep_repeats"]))
        widths["hidden"].append(hidden)
        widths["c_ms"].append(times["c"])
        widths["half_ms"].append(times["half"])
        widths["eta_2"].append(times["c"] / (2 * times["half"]))
    flops = 2 * shapes["rows"] * shapes["hidden"] * (shapes["d_in"] + shapes["d_out"])
    return {"tf32": tf32, "shapes": shapes, "main": main, "inner": dict(ranks.inner),
            "eta": eta, "c_tflops_per_s": flops / (main["c"]["median_ms"] / 1e3) / 1e12,
            "widths": widths}


def arguments(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="measure.gpu_probe", description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, type=pathlib.Path, help="the record's path (.json)")
    parser.add_argument("--timeout-s", type=float, default=300.0)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = arguments(argv)
    if not torch.cuda.is_available():
        raise SystemExit("measure.gpu_probe: no CUDA device is visible (this probe needs a GPU)")
    ranks = worker.Ranks("nccl", args.timeout_s, pinned=False)
    try:
        record = {"schema": analysis.PROBE_SCHEMA, "environment": worker.environment(ranks, "nccl"),
                  "protocol": PLAN | {"parts": list(PARTS), "dtype": "float32",
                                      "min_sample_ms": worker.MIN_SAMPLE_MS,
                                      "min_c_ms": worker.MIN_C_MS, "timer": "CUDA events"},
                  "fp32": at_precision(ranks, tf32=False),
                  "tf32": at_precision(ranks, tf32=True)}
        torch.set_float32_matmul_precision("highest")
        if ranks.rank == 0:
            analysis.write_record(args.out, record, check=analysis.check_probe)
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
