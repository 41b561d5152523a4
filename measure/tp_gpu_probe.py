"""Article 2's layer on one GPU: how long one rank's share of a tensor-parallel layer computes.

    python -m measure.tp_gpu_probe --out tp-gpu-probe.json

Tensor parallelism over t devices gives each rank 1/t of the layer's FLOPs; the article's
E(t) and R assume that it then takes 1/t of the time. One GPU can time that share without a
second device: the layer is split by the same plan as on t ranks (``tp_layer.parallel``), on
PyTorch's single-process ``fake`` group of t ranks (``tp_layer.fake_group``), so rank 0 computes
exactly its own share while every collective is issued and transfers nothing. For each width
h and degree t the record keeps the forward and backward pass of rank 0's share, T(t) (t = 1:
the whole layer, unsplit), timed by CUDA events, and the collectives the share issued. From them
the book takes the whole layer's FLOP rate, 72·b·s·h² / T(1), and the compute efficiency of a
share, E_calc(t) = T(1) / (t · T(t)), which is 1 where the article's assumption holds; and, over
b, whether a share's time grows with its tokens (work) or stays put (a fixed cost per pass).

Times in ms (medians of the steady repetitions; each sample repeats the pass until it lasts at
least ``worker.MIN_SAMPLE_MS``), sizes in bytes. The record is checked by
``tp_analysis.check_gpu_probe`` and written atomically.
"""
from __future__ import annotations

import argparse
import datetime
import pathlib
import platform
import sys

import torch

from measure import analysis, tp_analysis, tp_layer
from measure.worker import MIN_SAMPLE_MS, elapsed_ms, gpu_environment, inner_count

#: b and s (the main b: 4096 tokens; the other batches show how a share's time grows with the
#: tokens), the widths, the degrees and the repetitions; BF16, as GPUs train.
PLAN = {"batch": 4, "batches": [1, 4, 16], "seq_len": 1024, "hidden": [1024, 2048, 4096, 8192],
        "degrees": [1, 2, 4, 8], "warmup": 3, "repeats": 15, "dtype": "bfloat16"}
DTYPES = {"bfloat16": torch.bfloat16, "float32": torch.float32}


def steady_ms(step, plan: dict, device: torch.device) -> list:
    """The steady repetitions of ``step`` (ms per call), after ``plan["warmup"]`` dropped ones;
    each repetition repeats the call until it lasts at least MIN_SAMPLE_MS, as the worker's do
    (``worker.elapsed_ms``, ``worker.inner_count``)."""
    for _ in range(plan["warmup"]):
        elapsed_ms(step, 1, device)
    inner = inner_count(elapsed_ms(step, 1, device))
    return [elapsed_ms(step, inner, device) / inner for _ in range(plan["repeats"])]


def share(whole: tp_layer.Layer, degree: int, batch: int, plan: dict,
          device: torch.device) -> dict:
    """Rank 0's share of ``whole`` (on ``device``) split ``degree`` ways (the whole layer for
    degree 1) on ``batch`` sequences: its steady forward-and-backward times, and the
    collectives it issued."""
    hidden = whole.norm1.normalized_shape[0]
    x = torch.randn(batch, plan["seq_len"], hidden, dtype=DTYPES[plan["dtype"]], device=device)

    def timed(layer):
        leaf = x.detach().requires_grad_(True)

        def step():
            layer(leaf).sum().backward()
        return steady_ms(step, plan, device)
    if degree == 1:
        return {"samples_ms": timed(whole), "collectives": []}
    with tp_layer.fake_group(degree):
        split = tp_layer.parallel(whole, degree, sequence_parallel=False, device=device.type)
        return {"samples_ms": timed(split), "collectives": tp_layer.count(split, x)}


def probe(plan: dict, device: torch.device) -> dict:
    """For each batch, width and degree: T(t)'s summary, its steady samples and its
    collectives."""
    rows = []
    for hidden in plan["hidden"]:
        whole = tp_layer.build(hidden).to(device=device, dtype=DTYPES[plan["dtype"]])
        for batch in plan["batches"]:
            for degree in plan["degrees"]:
                rows.append(row(share(whole, degree, batch, plan, device), batch, hidden, degree))
                if device.type == "cuda":
                    torch.cuda.empty_cache()
    return {"rows": rows}


def row(taken: dict, batch: int, hidden: int, degree: int) -> dict:
    """One row of the record: where it was taken, T(t)'s summary, its steady samples (rounded
    to 0.01 µs) and its collectives grouped."""
    return {"batch": batch, "hidden": hidden, "degree": degree,
            **analysis.summary(taken["samples_ms"]),
            "samples_ms": [round(t, 5) for t in taken["samples_ms"]],
            "collectives": tp_layer.totals(taken["collectives"])}


def environment(device: torch.device) -> dict:
    """Where the record was taken: the device, the versions, the date, the GPU environment."""
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor()
    return {"device": device.type, "device_name": name, "torch_version": torch.__version__,
            "python_version": platform.python_version(), "platform": platform.platform(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "gpu": gpu_environment() if device.type == "cuda" else None}


def arguments(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="measure.tp_gpu_probe",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, type=pathlib.Path, help="the record's path (.json)")
    return parser.parse_args(argv)


def main(argv=None, plan: dict = PLAN, device: str = "cuda") -> int:
    """Take the record on ``device`` (the tests pass a CPU and a small plan)."""
    args = arguments(argv)
    if device == "cuda" and not torch.cuda.is_available():
        raise SystemExit("measure.tp_gpu_probe: no CUDA device is visible (this probe needs a GPU)")
    where = torch.device(device, 0) if device == "cuda" else torch.device(device)
    if where.type == "cuda":
        torch.cuda.set_device(where)
    record = {"schema": tp_analysis.GPU_PROBE_SCHEMA, "environment": environment(where),
              "protocol": {**plan, "min_sample_ms": MIN_SAMPLE_MS, "heads": {str(h): tp_layer.heads_for(h) for h in plan["hidden"]},
                           "mlp_factor": tp_layer.MLP_FACTOR,
                           "bytes_per_value": torch.tensor([], dtype=DTYPES[plan["dtype"]])
                           .element_size(), "timer": "CUDA events" if where.type == "cuda"
                           else "host clock", "group": "fake (rank 0 of t; no transfer)"},
              **probe(plan, where)}
    analysis.write_record(args.out, record, check=tp_analysis.check_gpu_probe)
    return 0


if __name__ == "__main__":
    sys.exit(main())
