"""One rank of the measurement: article 1's split x · A → ReLU → · B on torch.distributed.

Started by ``torchrun`` (``python -m measure`` starts it for you), once per rank::

    torchrun --standalone --nproc-per-node 2 -m measure.worker --out data/measurements/x.json

A is split by columns and B by rows, so each rank computes a partial output of the full
shape and one all-reduce sums them (article 1, section 2). Every timed repetition starts
after a barrier and ends after the device has finished (``synchronize`` on GPUs; CPU
operations and gloo collectives return when done); warm-up repetitions are dropped; a
repetition on several ranks counts the slowest rank. Rank 0 writes the record atomically
(``measure.analysis.write_record``); a failed or stalled rank ends every rank with an error
after ``--timeout-s`` and leaves no record.

Times in ms, sizes in bytes, bandwidths in bytes per second.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import socket
import sys
import time

import torch
import torch.distributed as dist

from measure import analysis
from model.units import ring_factor

#: Shapes of the main run: rows of x (tokens), input width, hidden width, output width.
SHAPES = {"rows": 64, "d_in": 1024, "hidden": 4096, "d_out": 2048}
#: Repetitions (warm-up, steady) of the main run, of each all-reduce size and of each C point.
FULL = {"warmup": 5, "repeats": 50, "sweep_repeats": 20,
        "allreduce_floats": [2 ** k for k in range(8, 23, 2)],
        "hidden_sweep": [16, 32, 64, 128, 256, 512, 1024, 2048, 4096]}
#: A repetition of a small all-reduce times up to this many calls (fewer for big messages).
ALLREDUCE_INNER, ALLREDUCE_INNER_FLOATS = 32, 2 ** 18
QUICK = {"warmup": 2, "repeats": 10, "sweep_repeats": 5,
         "allreduce_floats": [2 ** k for k in range(10, 21, 5)],
         "hidden_sweep": [32, 256, 2048]}


class Ranks:
    """This process's place in the group, its device and the timing primitive."""

    def __init__(self, backend: str, timeout_s: float):
        dist.init_process_group(backend, timeout=datetime.timedelta(seconds=timeout_s))
        self.rank, self.size = dist.get_rank(), dist.get_world_size()
        self.local_size = int(os.environ.get("LOCAL_WORLD_SIZE", self.size))
        if backend == "nccl":
            self.device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
            torch.cuda.set_device(self.device)
        else:
            self.device = torch.device("cpu")

    def synchronize(self) -> None:
        """Wait until the device has finished the work queued so far."""
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def timed(self, operations: dict, warmup: int, repeats: int) -> dict:
        """Steady repetition times in ms of each of ``operations`` (name → (operation, everyone,
        inner)), the slowest rank's for each repetition, divided by ``inner`` (the number of
        back-to-back calls one repetition times).

        The operations take turns within each repetition, so the slow drift of a shared
        machine reaches all of them alike. With ``everyone`` false only rank 0 runs the
        operation (the one-device baseline) while the others wait at the next barrier."""
        samples = {name: [] for name in operations}
        for index in range(warmup + repeats):
            for name, (operation, everyone, inner) in operations.items():
                dist.barrier()
                elapsed_ms = 0.0
                if everyone or self.rank == 0:
                    start = time.perf_counter()
                    for _ in range(inner):
                        operation()
                    self.synchronize()
                    elapsed_ms = (time.perf_counter() - start) * 1000.0 / inner
                if index >= warmup:
                    samples[name].append(elapsed_ms)
        slowest = torch.tensor(list(samples.values()), dtype=torch.float64, device=self.device)
        dist.all_reduce(slowest, op=dist.ReduceOp.MAX)
        return dict(zip(operations, slowest.tolist()))


class Stage:
    """The article's stage at one hidden width: S = x · W (whole on every rank), then the
    divisible part ReLU(x₀ · A) · B, split by A's columns and B's rows."""

    def __init__(self, ranks: Ranks, hidden: int):
        generator = torch.Generator().manual_seed(0)   # the same matrices on every rank

        def matrix(rows, columns):
            return (torch.randn(rows, columns, generator=generator) / rows ** 0.5).to(ranks.device)

        self.ranks = ranks
        self.x = matrix(SHAPES["rows"], SHAPES["d_in"])
        self.w = matrix(SHAPES["d_in"], SHAPES["d_in"])
        self.a = matrix(SHAPES["d_in"], hidden)
        self.b = matrix(hidden, SHAPES["d_out"])
        share = hidden // ranks.size
        columns = slice(ranks.rank * share, hidden if ranks.rank == ranks.size - 1
                        else (ranks.rank + 1) * share)
        self.a_part = self.a[:, columns].contiguous()
        self.b_part = self.b[columns, :].contiguous()

    def s(self):
        return self.x @ self.w

    def c(self, x0):
        return torch.relu(x0 @ self.a) @ self.b

    def half(self, x0):
        return torch.relu(x0 @ self.a_part) @ self.b_part

    def one(self):
        return self.c(self.s())

    def two(self):
        partial = self.half(self.s())
        dist.all_reduce(partial)
        return partial


def measure_main(ranks: Ranks, plan: dict) -> dict:
    """S, C, a half, T₁ and T₂ at the main shape, with η = C / (n · t_half)."""
    stage = Stage(ranks, SHAPES["hidden"])
    x0 = stage.s()
    runs = {"s": (stage.s, False, 1), "c": (lambda: stage.c(x0), False, 1),
            "half": (lambda: stage.half(x0), True, 1), "one": (stage.one, False, 1),
            "two": (stage.two, True, 1)}
    samples = ranks.timed(runs, plan["warmup"], plan["repeats"])
    main = {name: analysis.summary(samples[name]) for name in runs}
    main["eta"] = main["c"]["median_ms"] / (ranks.size * main["half"]["median_ms"])
    main["v_bytes"] = SHAPES["rows"] * SHAPES["d_out"] * stage.x.element_size()
    main["max_abs_difference"] = float((stage.one() - stage.two()).abs().max())
    return main


def measure_trace(ranks: Ranks, plan: dict) -> dict:
    """T₂ taken apart on every rank: the medians of its three phases (S, the half, the
    all-reduce, each ended by a synchronisation), one value per rank. The all-reduce phase
    of a rank that finished its half early includes its wait for the slower rank."""
    stage = Stage(ranks, SHAPES["hidden"])
    phases = {"s_ms": [], "half_ms": [], "allreduce_ms": []}
    for index in range(plan["warmup"] + plan["repeats"]):
        dist.barrier()
        marks = [time.perf_counter()]
        x0 = stage.s()
        ranks.synchronize()
        marks.append(time.perf_counter())
        partial = stage.half(x0)
        ranks.synchronize()
        marks.append(time.perf_counter())
        dist.all_reduce(partial)
        ranks.synchronize()
        marks.append(time.perf_counter())
        if index >= plan["warmup"]:
            for name, start, end in zip(phases, marks, marks[1:]):
                phases[name].append((end - start) * 1000.0)
    mine = torch.tensor([analysis.summary(times)["median_ms"] for times in phases.values()],
                        dtype=torch.float64, device=ranks.device)
    every = [torch.zeros_like(mine) for _ in range(ranks.size)]
    dist.all_gather(every, mine)
    return {name: [float(row[i]) for row in every] for i, name in enumerate(phases)}


def measure_allreduce(ranks: Ranks, plan: dict) -> dict:
    """All-reduce times over message sizes, and ℓ and B fitted to their medians.

    One repetition times ``inner`` back-to-back all-reduces (more for small messages), so
    that the skew with which ranks leave the barrier does not swamp a short transfer."""
    tensors = {floats: torch.zeros(floats, dtype=torch.float32, device=ranks.device)
               for floats in plan["allreduce_floats"]}
    inner = {floats: max(1, min(ALLREDUCE_INNER, ALLREDUCE_INNER_FLOATS // floats))
             for floats in tensors}
    samples = ranks.timed({floats: (lambda t=tensor: dist.all_reduce(t), True, inner[floats])
                           for floats, tensor in tensors.items()},
                          plan["warmup"], plan["repeats"])
    stats = [analysis.summary(samples[floats]) for floats in tensors]
    sizes = [floats * tensor.element_size() for floats, tensor in tensors.items()]
    medians = [s["median_ms"] for s in stats]
    return {"sizes_bytes": sizes, "inner": list(inner.values()), "median_ms": medians,
            "p10_ms": [s["p10_ms"] for s in stats], "p90_ms": [s["p90_ms"] for s in stats],
            "ring_factor": ring_factor(ranks.size),
            "fit": analysis.fit_hockney(sizes, medians)}


def measure_c_sweep(ranks: Ranks, plan: dict) -> dict:
    """C, a half, T₁ and T₂ (medians) over hidden widths, so that C spans the predicted
    break-even point; η and the speedup T₁/T₂ at each width."""
    rows = {"hidden": [], "c_ms": [], "half_ms": [], "one_ms": [], "two_ms": [], "eta": [],
            "speedup": []}
    for hidden in plan["hidden_sweep"]:
        stage = Stage(ranks, hidden)
        x0 = stage.s()
        samples = ranks.timed({"c": (lambda: stage.c(x0), False, 1),
                               "half": (lambda: stage.half(x0), True, 1),
                               "one": (stage.one, False, 1), "two": (stage.two, True, 1)},
                              plan["warmup"], plan["sweep_repeats"])
        medians = {name: analysis.summary(times)["median_ms"] for name, times in samples.items()}
        rows["hidden"].append(hidden)
        for name, median in medians.items():
            rows[f"{name}_ms"].append(median)
        rows["eta"].append(medians["c"] / (ranks.size * medians["half"]))
        rows["speedup"].append(medians["one"] / medians["two"])
    rows["crossing"] = analysis.crossing(rows["c_ms"], rows["speedup"])
    return rows


def environment(ranks: Ranks, backend: str) -> dict:
    """Where the record was taken: host, device, threads, backend, ranks, versions, date."""
    if ranks.device.type == "cuda":
        device_name = torch.cuda.get_device_name(ranks.device)
    else:
        device_name = cpu_model()
    return {"host": socket.gethostname(), "device": ranks.device.type, "device_name": device_name,
            "cores_visible": cores_visible(), "threads_per_rank": torch.get_num_threads(),
            "backend": backend, "world_size": ranks.size,
            "nodes": ranks.size // ranks.local_size, "torch_version": torch.__version__,
            "python_version": platform.python_version(), "platform": platform.platform(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def cores_visible() -> int:
    """The cores this process may run on: its CPU affinity, which a container, a scheduler or
    taskset narrows (os.cpu_count() counts the machine's, which this run may not have)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what platform reports."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def arguments(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="measure.worker", description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="the record's path (.json)")
    parser.add_argument("--backend", default="gloo", choices=("gloo", "nccl"))
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repetitions")
    parser.add_argument("--threads-per-rank", type=int, default=1)
    parser.add_argument("--timeout-s", type=float, default=600.0,
                        help="a collective that waits longer than this fails every rank")
    # For the tests: make the last rank fail or stall after joining the group.
    parser.add_argument("--inject-fault", choices=("crash", "stall"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = arguments(argv)
    torch.set_num_threads(args.threads_per_rank)
    ranks = Ranks(args.backend, args.timeout_s)
    try:
        if args.inject_fault and ranks.rank == ranks.size - 1:
            if args.inject_fault == "crash":
                raise RuntimeError("injected fault: this rank crashed on purpose")
            time.sleep(10 * args.timeout_s)
        plan = QUICK if args.quick else FULL
        record = {
            "schema": analysis.SCHEMA,
            "environment": environment(ranks, args.backend),
            "protocol": {"warmup": plan["warmup"], "repeats": plan["repeats"],
                         "sweep_repeats": plan["sweep_repeats"], "dtype": "float32",
                         "shapes": SHAPES, "quick": args.quick,
                         "baseline": "T1 and C on rank 0 alone, with the same threads per rank"},
            "main": measure_main(ranks, plan),
            "trace": measure_trace(ranks, plan),
            "allreduce": measure_allreduce(ranks, plan),
        }
        record["c_sweep"] = measure_c_sweep(ranks, plan)
        if ranks.rank == 0:
            analysis.write_record(args.out, record)
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
