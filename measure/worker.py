"""One rank of the measurement: article 1's split x · U → ReLU → · W on torch.distributed.

Started by ``torchrun`` (``python -m measure`` starts it for you), once per rank::

    torchrun --standalone --nproc-per-node 2 -m measure.worker --out data/measurements/x.json

U is split by columns and W by rows, so each rank computes a partial output of the full
shape and one all-reduce sums them (article 1, section 2). Every timed repetition starts
after a barrier and ends after the device has finished (``synchronize`` on GPUs; CPU
operations and gloo collectives return when done); warm-up repetitions are dropped; a
repetition on several ranks counts the slowest rank. Global rank 0 writes the record
atomically (``writes_record``, ``measure.analysis.write_record``); a failed or stalled rank
ends every rank with an error after ``--timeout-s`` and leaves no record.

Times in ms, sizes in bytes, bandwidths in bytes per second.
"""
from __future__ import annotations

import argparse
import datetime
import gzip
import itertools
import math
import os
import pathlib
import platform
import re
import resource
import socket
import subprocess
import sys
import time

import torch
import torch.distributed as dist

from measure import analysis
from model.units import ring_factor

#: Shapes of the main run before scaling: rows of x (tokens), input width, hidden width, output
#: width (the rows are doubled until C lasts MIN_C_MS, see `scaled_rows`).
SHAPES = {"rows": 64, "d_in": 1024, "hidden": 4096, "d_out": 2048}
#: Repetitions (warm-up, steady) of the main run, of each all-reduce size and of each C point.
FULL = {"warmup": 5, "repeats": 50, "sweep_repeats": 20,
        "allreduce_floats": [2 ** k for k in range(8, 23, 2)],
        "hidden_sweep": [16, 32, 64, 128, 256, 512, 1024, 2048, 4096]}
QUICK = {"warmup": 2, "repeats": 10, "sweep_repeats": 5,
         "allreduce_floats": [2 ** k for k in range(10, 21, 5)],
         "hidden_sweep": [32, 256, 2048]}


#: A timed sample lasts at least this long: an operation shorter than that is repeated back to
#: back within one sample (the number is chosen once per operation, the same on every rank).
MIN_SAMPLE_MS = 1.0
MAX_INNER = 1000
#: Each all-reduce of the sweep gets a buffer the previous call did not touch: the buffers of a
#: size are handed out in turn from a pool of at least two that spans POOL_BYTES (at most
#: MAX_POOL_BUFFERS of them), made, as zeros, before the timer starts.
POOL_BYTES = 64 * 2 ** 20
MAX_POOL_BUFFERS = 64
#: The main run's C lasts at least this long: the rows of x are doubled until it does
#: (``scaled_rows``, timed again at each size), which on a GPU turns microseconds of work
#: into milliseconds.
MIN_C_MS = 5.0


class Ranks:
    """This process's place in the group, its device and the timing primitive."""

    def __init__(self, backend: str, timeout_s: float, pinned: bool = True):
        """``pinned``: whether this rank may be pinned at all (``--no-pin`` says no); whether
        it is, ``pin`` decides from the backend and the cores (never for NCCL)."""
        self.local_rank = int(os.environ.get("LOCAL_RANK", 0))
        self.local_size = int(os.environ.get("LOCAL_WORLD_SIZE", 1))
        # Pinned before the group starts, so that the threads gloo starts inherit the core.
        self.cores_visible = cores_visible()      # before pinning narrows them to one
        self.all_cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else None
        self.pinned_cores = pin(self.local_rank, self.local_size, backend) if pinned else None
        options = {"timeout": datetime.timedelta(seconds=timeout_s)}
        self.device = rank_device(backend, self.local_rank)
        if self.device.type == "cuda":
            # The device first, and named to the group, so that NCCL's barrier knows it.
            torch.cuda.set_device(self.device)
            options["device_id"] = self.device
        dist.init_process_group(backend, **options)
        self.rank, self.size = dist.get_rank(), dist.get_world_size()
        self.local_size = int(os.environ.get("LOCAL_WORLD_SIZE", self.size))
        self.skew_ms = []

    def synchronize(self) -> None:
        """Wait until the device has finished the work queued so far."""
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def elapsed_ms(self, operation, inner: int) -> float:
        """``elapsed_ms`` on this rank's device."""
        return elapsed_ms(operation, inner, self.device)

    def inner_for(self, operation, everyone: bool) -> int:
        """How many back-to-back calls make one sample last MIN_SAMPLE_MS: from one call, timed
        after a barrier, the slowest rank's, so that every rank repeats a collective alike."""
        dist.barrier()
        once_ms = self.elapsed_ms(operation, 1) if everyone or self.rank == 0 else 0.0
        slowest = torch.tensor([once_ms], dtype=torch.float64, device=self.device)
        dist.all_reduce(slowest, op=dist.ReduceOp.MAX)
        return inner_count(slowest.item())

    def timed(self, operations: dict, warmup: int, repeats: int) -> dict:
        """Steady repetition times in ms of each of ``operations`` (name → (operation,
        everyone)): per repetition, the slowest rank's time of ``inner`` back-to-back calls
        divided by ``inner`` (``inner_for``; reported in ``self.inner``).

        The operations take turns within each repetition, so the slow drift of a shared
        machine reaches all of them alike. With ``everyone`` false only rank 0 runs the
        operation (the one-device baseline) while the others wait at the next barrier. On one
        node the ranks' clocks are the same clock, so each repetition's start skew (how much
        later the last rank left the barrier than the first) is kept in ``self.skew_ms``."""
        self.inner = {name: self.inner_for(operation, everyone)
                      for name, (operation, everyone) in operations.items()}
        samples = {name: [] for name in operations}
        starts = []
        for index in range(warmup + repeats):
            for name, (operation, everyone) in operations.items():
                dist.barrier()
                starts.append(time.clock_gettime(time.CLOCK_MONOTONIC) * 1000.0)
                elapsed_ms = 0.0
                if everyone or self.rank == 0:
                    elapsed_ms = self.elapsed_ms(operation, self.inner[name]) / self.inner[name]
                if index >= warmup:
                    samples[name].append(elapsed_ms)
        slowest = torch.tensor(list(samples.values()), dtype=torch.float64, device=self.device)
        dist.all_reduce(slowest, op=dist.ReduceOp.MAX)
        if self.size == self.local_size:       # one node: one clock
            mine = torch.tensor(starts, dtype=torch.float64, device=self.device)
            first, last = mine.clone(), mine.clone()
            dist.all_reduce(first, op=dist.ReduceOp.MIN)
            dist.all_reduce(last, op=dist.ReduceOp.MAX)
            self.skew_ms += (last - first).tolist()
        return dict(zip(operations, slowest.tolist()))


def elapsed_ms(operation, inner: int, device: torch.device) -> float:
    """The time of ``inner`` back-to-back calls of ``operation``, in ms: CUDA events on a GPU
    (the device's own clock, not the host's), the host's monotonic clock on a CPU."""
    if device.type == "cuda":
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(inner):
            operation()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)
    start = time.perf_counter()
    for _ in range(inner):
        operation()
    return (time.perf_counter() - start) * 1000.0


#: Where the kernel's build configuration may be read, in turn: CONFIG_HZ is its timer tick.
KERNEL_CONFIGS = (pathlib.Path("/proc/config.gz"),
                  pathlib.Path("/boot") / f"config-{platform.release()}")


def kernel_tick_hz(configs=KERNEL_CONFIGS) -> int | None:
    """The kernel's timer tick rate in Hz (CONFIG_HZ), from the first readable build
    configuration of ``configs`` (gzip-compressed or plain); None where none is readable. A rank
    that the scheduler takes off its core for another thread may wait a tick to get it back:
    4 ms at 250 Hz."""
    for path in configs:
        try:
            with (gzip.open(path, "rt") if path.suffix == ".gz" else open(path)) as config:
                for line in config:
                    if line.startswith("CONFIG_HZ="):
                        return int(line.split("=", 1)[1])
        except (OSError, ValueError):
            continue
    return None


def cpu_ticks(stat: pathlib.Path = pathlib.Path("/proc/stat")) -> dict | None:
    """The machine's CPU time so far, in clock ticks, from the first line of /proc/stat: the
    time the hypervisor gave to other guests (``steal``, its eighth field) and the total of the
    first eight (user, nice, system, idle, iowait, irq, softirq, steal); None where it cannot be
    read (not Linux)."""
    try:
        fields = [int(value) for value in stat.read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return None
    return {"steal": fields[7] if len(fields) == 8 else 0, "total": sum(fields)}


def steal_share(before: dict | None, after: dict | None) -> float | None:
    """The share of the machine's CPU time stolen by the hypervisor between two ``cpu_ticks``
    readings; None where either is missing or no tick passed."""
    if before is None or after is None or after["total"] <= before["total"]:
        return None
    return (after["steal"] - before["steal"]) / (after["total"] - before["total"])


def involuntary_switches() -> int:
    """How many times so far the scheduler has taken a core from this process's threads while
    they could still run (getrusage's ru_nivcsw)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_nivcsw


def process_threads(tasks: pathlib.Path = pathlib.Path("/proc/self/task")) -> int | None:
    """How many threads this process runs: torch's, gloo's I/O threads and Python's own, each
    one a task under /proc/self/task; None where there is none (not Linux)."""
    try:
        return len(list(tasks.iterdir()))
    except OSError:
        return None


def oversubscribed(everyone: list, host: str, cores: int, torch_threads: int) -> bool:
    """Whether the ranks on ``host`` run more threads than it has ``cores``: every thread of
    every rank there (``process_threads``, gloo's I/O threads too), or where a rank cannot
    count them, its ``torch_threads``."""
    here = [rank.get("threads") or torch_threads for rank in everyone if rank["host"] == host]
    return sum(here) > cores


def with_every_thread(ranks: Ranks, operation):
    """``operation`` wrapped to run with the threads of every rank on this node (threads per
    rank × ranks) and, where this rank is pinned, on every core the run may use: the fair
    one-device baseline, given the same cores as the split (the other ranks wait meanwhile)."""
    own = torch.get_num_threads()

    def wide():
        torch.set_num_threads(own * ranks.local_size)
        if ranks.pinned_cores is not None:
            os.sched_setaffinity(0, set(ranks.all_cores))
        try:
            return operation()
        finally:
            torch.set_num_threads(own)
            if ranks.pinned_cores is not None:
                os.sched_setaffinity(0, set(ranks.pinned_cores))
    return wide


def rows_for(c_ms: float, rows: int, target_ms: float = MIN_C_MS, max_rows: int = 1 << 16) -> int:
    """The rows of x (tokens) that make C last at least ``target_ms``, given that C took
    ``c_ms`` at ``rows`` rows: ``rows`` doubled as often as needed (C grows in proportion to
    the rows), at most ``max_rows``. A GPU does the CPU's shapes in microseconds, where the
    host's overhead, not the work, would be timed."""
    if c_ms <= 0:
        return max_rows
    while c_ms < target_ms and rows < max_rows:
        rows, c_ms = 2 * rows, 2 * c_ms
    return rows


def inner_count(once_ms: float) -> int:
    """Back-to-back calls for one sample of at least MIN_SAMPLE_MS, given one call's time."""
    if once_ms <= 0:
        return MAX_INNER
    return max(1, min(MAX_INNER, math.ceil(MIN_SAMPLE_MS / once_ms)))


def cores_to_pin(local_rank: int, local_size: int, cores, backend: str):
    """The cores local rank ``local_rank`` of ``local_size`` ranks on this node is pinned to,
    given the ``cores`` it may run on (its CPU affinity, core numbers): two of its own, cores
    2r and 2r + 1 of the sorted set (one for its compute, one for the threads gloo starts),
    for the gloo backend where there are at least two cores per rank; else None (unpinned).

    On fewer cores a pinned rank's own threads take turns on its core, which this project's
    2-core machine showed to be worse (erratic small all-reduces) than leaving them unpinned:
    its committed CPU records (two to four ranks on 2 cores) were all taken unpinned by this
    rule (their ``pinned_cores_rank0`` is null), and still would be.

    Never for NCCL. Cores 2r and 2r + 1 know nothing of the NUMA layout: on a two-socket GPU
    node (a DGX: GPUs 0–3 on one socket, 4–7 on the other) the host threads of GPUs 4–7 would
    land on the far socket, and NCCL's proxy threads with them (NCCL keeps its threads within
    the process's mask, on the GPU's own cores only where the mask includes them). Left
    unpinned, NCCL places its threads on the GPU's cores itself, and a launcher that knows the
    topology can bind the rank first: ``torchrun --numa-binding node``, ``srun --cpu-bind``,
    ``numactl`` (docs/measuring.md). Reading the topology here would duplicate those tools,
    and could not be tested on this project's machines, which have no multi-GPU node."""
    if backend != "gloo":
        return None
    cores = sorted(cores)
    if len(cores) < 2 * local_size:
        return None
    return cores[2 * local_rank: 2 * local_rank + 2]


def pin(local_rank: int, local_size: int, backend: str = "gloo"):
    """Pin this process to ``cores_to_pin``'s cores among those it may use; the cores, or None
    where it is left unpinned (NCCL, too few cores, or a machine that does not allow it)."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    mine = cores_to_pin(local_rank, local_size, os.sched_getaffinity(0), backend)
    if mine is not None:
        os.sched_setaffinity(0, set(mine))
    return mine


def device_index(local_rank: int, visible: int) -> int:
    """The CUDA device index of local rank ``local_rank`` when it sees ``visible`` GPUs
    (``torch.cuda.device_count()``, which CUDA_VISIBLE_DEVICES narrows): 0 when it sees one
    (Slurm's ``--gpus-per-task=1``, or any launcher that hands each rank its own GPU: its one
    GPU is cuda:0 whatever its number on the node), else ``local_rank`` (torchrun on a node
    whose ranks all see every GPU). A rank that sees none, or fewer than its local rank needs,
    is refused with what it saw."""
    seen = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible < 1:
        raise SystemExit(f"measure: local rank {local_rank} sees no GPU (CUDA_VISIBLE_DEVICES="
                         f"{seen!r}); the NCCL backend needs one per rank")
    if visible == 1:
        return 0
    if local_rank >= visible:
        raise SystemExit(f"measure: local rank {local_rank} sees {visible} GPUs "
                         f"(CUDA_VISIBLE_DEVICES={seen!r}), too few for one GPU per rank: give "
                         f"each rank one GPU, or every rank of the node all of them")
    return local_rank


def rank_device(backend: str, local_rank: int) -> torch.device:
    """This rank's device: a GPU for NCCL (``device_index`` of the GPUs it sees), else the CPU."""
    if backend != "nccl":
        return torch.device("cpu")
    return torch.device("cuda", device_index(local_rank, torch.cuda.device_count()))


def slurm_tasks_on_node(tasks_per_node: str, node: int) -> int:
    """The tasks Slurm starts on node ``node`` (0-based, SLURM_NODEID), read from its
    SLURM_STEP_TASKS_PER_NODE / SLURM_TASKS_PER_NODE syntax: counts in node order, ``n(xk)``
    for k nodes of n tasks, e.g. ``"8(x2)"`` or ``"2(x3),1"``."""
    counts = []
    for group in tasks_per_node.split(","):
        found = re.fullmatch(r"\s*(\d+)(?:\(x(\d+)\))?\s*", group)
        if not found:
            raise ValueError(f"tasks per node must read like 8(x2),4; got {tasks_per_node!r}")
        counts += [int(found[1])] * int(found[2] or 1)
    if not 0 <= node < len(counts):
        raise ValueError(f"node {node} is not among the {len(counts)} of {tasks_per_node!r}")
    return counts[node]


def launcher_environment(environ) -> dict:
    """The variables torch.distributed reads (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE)
    that ``environ`` lacks, taken from Slurm's when ``srun`` started this process without
    torchrun (one task per rank, e.g. with ``--gpus-per-task=1``): SLURM_PROCID, SLURM_NTASKS,
    SLURM_LOCALID and the tasks on this node. Empty under torchrun (it sets RANK) and outside
    Slurm. MASTER_ADDR and MASTER_PORT, which the group needs too, are the batch script's to
    set (docs/measuring.md); a Slurm task without them is refused here, naming them."""
    if "RANK" in environ or "SLURM_PROCID" not in environ:
        return {}
    missing = [name for name in ("MASTER_ADDR", "MASTER_PORT") if name not in environ]
    if missing:
        raise SystemExit(f"measure: started by srun without torchrun, and {' and '.join(missing)} "
                         f"{'is' if len(missing) == 1 else 'are'} not set: export them in the "
                         f"batch script (the first node's name, a free port; docs/measuring.md)")
    tasks = environ.get("SLURM_NTASKS_PER_NODE") or slurm_tasks_on_node(
        environ.get("SLURM_STEP_TASKS_PER_NODE") or environ["SLURM_TASKS_PER_NODE"],
        int(environ.get("SLURM_NODEID", 0)))
    return {"RANK": environ["SLURM_PROCID"], "WORLD_SIZE": environ["SLURM_NTASKS"],
            "LOCAL_RANK": environ.get("SLURM_LOCALID", "0"), "LOCAL_WORLD_SIZE": str(tasks)}


class Stage:
    """The article's stage at one hidden width: S = x · W (whole on every rank), then the
    divisible part ReLU(x₀ · A) · B, split by A's columns and B's rows."""

    def __init__(self, ranks: Ranks, hidden: int, shapes: dict, parts: int | None = None):
        """``parts``: how many ways A and B are cut (default: the ranks); this rank keeps the
        share of its rank number (``measure.gpu_probe`` times one share of n on one device)."""
        generator = torch.Generator().manual_seed(0)   # the same matrices on every rank

        def matrix(rows, columns):
            return (torch.randn(rows, columns, generator=generator) / rows ** 0.5).to(ranks.device)

        self.ranks = ranks
        self.x = matrix(shapes["rows"], shapes["d_in"])
        self.w = matrix(shapes["d_in"], shapes["d_in"])
        self.a = matrix(shapes["d_in"], hidden)
        self.b = matrix(hidden, shapes["d_out"])
        parts = parts or ranks.size
        share = hidden // parts
        columns = slice(ranks.rank * share, hidden if ranks.rank == parts - 1
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
    """S, C, a half, T₁, T₂ and the fair baseline T₁ with every rank's threads at the main
    shape, with η = C / (n · t_half); ``samples_ms`` keeps every steady repetition."""
    shapes = plan["shapes"]
    stage = Stage(ranks, shapes["hidden"], shapes)
    x0 = stage.s()
    runs = {"s": (stage.s, False), "c": (lambda: stage.c(x0), False),
            "half": (lambda: stage.half(x0), True), "one": (stage.one, False),
            "two": (stage.two, True), "one_wide": (with_every_thread(ranks, stage.one), False)}
    samples = ranks.timed(runs, plan["warmup"], plan["repeats"])
    main = {name: analysis.summary(samples[name]) for name in runs}
    main["samples_ms"] = {name: kept(samples[name]) for name in runs}
    main["inner"] = dict(ranks.inner)
    main["eta"] = main["c"]["median_ms"] / (ranks.size * main["half"]["median_ms"])
    main["v_bytes"] = shapes["rows"] * shapes["d_out"] * stage.x.element_size()
    main["max_abs_difference"] = float((stage.one() - stage.two()).abs().max())
    return main


def measure_trace(ranks: Ranks, plan: dict) -> dict:
    """T₂ taken apart on every rank, repetition by repetition: its three phases (S, the half,
    the all-reduce, each ended by a synchronisation) and, on one node (one clock for all
    ranks), each rank's wait inside the all-reduce: how much later the last rank reached it.
    The medians per rank are kept too (``s_ms``, ``half_ms``, ``allreduce_ms``, ``wait_ms``)."""
    stage = Stage(ranks, plan["shapes"]["hidden"], plan["shapes"])
    phases = {"s_ms": [], "half_ms": [], "allreduce_ms": []}
    arrivals = []
    for index in range(plan["warmup"] + plan["repeats"]):
        dist.barrier()
        marks = [time.clock_gettime(time.CLOCK_MONOTONIC) * 1000.0]
        x0 = stage.s()
        ranks.synchronize()
        marks.append(time.clock_gettime(time.CLOCK_MONOTONIC) * 1000.0)
        partial = stage.half(x0)
        ranks.synchronize()
        marks.append(time.clock_gettime(time.CLOCK_MONOTONIC) * 1000.0)
        dist.all_reduce(partial)
        ranks.synchronize()
        marks.append(time.clock_gettime(time.CLOCK_MONOTONIC) * 1000.0)
        if index >= plan["warmup"]:
            for name, start, end in zip(phases, marks, marks[1:]):
                phases[name].append(end - start)
            arrivals.append(marks[2])
    every = {name: gathered(ranks, times) for name, times in {**phases, "arrival": arrivals}.items()}
    trace = {name: [analysis.summary(row)["median_ms"] for row in every[name]] for name in phases}
    trace["repetitions"] = {name: every[name] for name in phases}
    if ranks.size == ranks.local_size:
        latest = [max(column) for column in zip(*every["arrival"])]
        waits = [[last - mine for last, mine in zip(latest, row)] for row in every["arrival"]]
        trace["repetitions"]["wait_ms"] = waits
        trace["wait_ms"] = [analysis.summary(row)["median_ms"] for row in waits]
    else:
        trace["repetitions"]["wait_ms"] = None
        trace["wait_ms"] = None
    return trace


def kept(samples_ms: list) -> list:
    """Steady repetitions as the record keeps them: rounded to 0.1 µs, far below the timer's
    noise, so that a record stays a few hundred kilobytes."""
    return [round(t, 4) for t in samples_ms]


def scaled_rows(c_ms_at, rows: int, target_ms: float = MIN_C_MS,
                max_rows: int = 1 << 16) -> tuple:
    """The rows of x (tokens) at which C, timed again at each size by ``c_ms_at(rows)`` (ms),
    lasts at least ``target_ms``, and the C measured there: each step jumps to the rows that
    ``rows_for`` extrapolates, then times C there, until C is long enough or the rows reach
    ``max_rows``. Timed, not only extrapolated: on a GPU the first short call is mostly launch
    overhead, and one extrapolation from it fell short (an H200 reached 2.1 ms, not 5)."""
    c_ms = c_ms_at(rows)
    while c_ms < target_ms and rows < max_rows:
        rows = rows_for(c_ms, rows, target_ms, max_rows)
        c_ms = c_ms_at(rows)
    return rows, c_ms


def scaled_shapes(ranks: Ranks) -> dict:
    """SHAPES with as many rows as make C last at least MIN_C_MS on this device
    (``scaled_rows``, timed on rank 0, the same rows on every rank), and ``c_ms_scaled``, the
    C that rank 0 measured at those rows (the record keeps both)."""
    def c_ms_at(rows):
        stage = Stage(ranks, SHAPES["hidden"], {**SHAPES, "rows": rows})
        x0 = stage.s()
        operation = lambda: stage.c(x0)                 # noqa: E731
        operation()                                     # warm
        inner = inner_count(ranks.elapsed_ms(operation, 1))
        return ranks.elapsed_ms(operation, inner) / inner

    found = scaled_rows(c_ms_at, SHAPES["rows"]) if ranks.rank == 0 else (0, 0.0)
    chosen = torch.tensor(found, dtype=torch.float64, device=ranks.device)
    dist.all_reduce(chosen, op=dist.ReduceOp.MAX)
    return {**SHAPES, "rows": int(chosen[0].item()), "c_ms_scaled": chosen[1].item()}


def gathered(ranks: Ranks, values: list) -> list:
    """Every rank's list of ``values`` (all of the same length), in rank order."""
    mine = torch.tensor(values, dtype=torch.float64, device=ranks.device)
    every = [torch.zeros_like(mine) for _ in range(ranks.size)]
    dist.all_gather(every, mine)
    return [row.tolist() for row in every]


def pool_size(message_bytes: int, pool_bytes: int = POOL_BYTES,
              most: int = MAX_POOL_BUFFERS) -> int:
    """How many buffers of ``message_bytes`` the sweep hands out in turn: enough to span
    ``pool_bytes``, at least two (no call gets the buffer the call before it summed) and at
    most ``most`` (small messages are not limited by memory)."""
    return max(2, min(most, math.ceil(pool_bytes / message_bytes)))


def in_turn(operation, buffers: list):
    """A call of ``operation`` on the next of ``buffers``, in turn, round and round."""
    turn = itertools.cycle(buffers)
    return lambda: operation(next(turn))


def last_level_cache_bytes(device: torch.device,
                           caches: pathlib.Path = pathlib.Path("/sys/devices/system/cpu/cpu0/cache")
                           ) -> int | None:
    """The largest cache the buffers pass through: a GPU's L2, or the CPU's last-level cache as
    Linux reports it for core 0 in ``caches`` (None where it does not); what the pool is set
    against."""
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).L2_cache_size
    sizes = {}
    for index in caches.glob("index*"):
        try:
            level = int((index / "level").read_text())
            size = (index / "size").read_text().strip()
        except (OSError, ValueError):
            continue
        scale = {"K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30}.get(size[-1:], 1)
        sizes[level] = int(size.rstrip("KMG")) * scale
    return sizes[max(sizes)] if sizes else None


def sweep_floats(plan_floats: list, step_floats: int) -> list:
    """The all-reduce sweep's message sizes, in floats: the plan's, the step's own V, and, where
    V lies past the plan's largest (a GPU's rows scaled up for C), four times V as well, so that
    the held-out V always lies between fitted sizes: its check interpolates, it never
    extrapolates past the sizes measured."""
    extra = {4 * step_floats} if step_floats >= max(plan_floats) else set()
    return sorted(set(plan_floats) | {step_floats} | extra)


def measure_allreduce(ranks: Ranks, plan: dict) -> dict:
    """All-reduce times over message sizes, and ℓ and B fitted to their medians.

    One sample times as many back-to-back all-reduces as make it last MIN_SAMPLE_MS, so that
    the skew with which ranks leave the barrier does not swamp a short transfer; each call sums
    a buffer of its own, the next of a pool (``pool_size``, ``in_turn``) whose buffers hold
    zeros (summing them never overflows) and are made before the timer starts. The step's own
    message, V, is one of the sizes, and lies between two others (``sweep_floats``)."""
    step_floats = plan["shapes"]["rows"] * plan["shapes"]["d_out"]
    floats_list = sweep_floats(plan["allreduce_floats"], step_floats)
    pools = {floats: [torch.zeros(floats, dtype=torch.float32, device=ranks.device)
                      for _ in range(pool_size(4 * floats))] for floats in floats_list}
    samples = ranks.timed({floats: (in_turn(dist.all_reduce, pool), True)
                           for floats, pool in pools.items()},
                          plan["warmup"], plan["repeats"])
    stats = [analysis.summary(samples[floats]) for floats in pools]
    sizes = [floats * pool[0].element_size() for floats, pool in pools.items()]
    medians = [s["median_ms"] for s in stats]
    return {"sizes_bytes": sizes, "inner": [ranks.inner[f] for f in pools],
            "buffers": [len(pool) for pool in pools.values()],
            "last_level_cache_bytes": last_level_cache_bytes(ranks.device),
            "median_ms": medians, "samples_ms": [kept(samples[floats]) for floats in pools],
            "p10_ms": [s["p10_ms"] for s in stats], "p90_ms": [s["p90_ms"] for s in stats],
            "ring_factor": ring_factor(ranks.size),
            "fit": analysis.fit_hockney(sizes, medians)}


def measure_c_sweep(ranks: Ranks, plan: dict) -> dict:
    """C, a half, T₁, the fair baseline T₁ with every rank's threads (``one_wide``) and T₂
    (medians) over hidden widths, so that C spans the predicted break-even point; η and the
    speedups T₁/T₂ and one_wide/T₂ at each width, each with its crossing; ``samples_ms`` keeps
    every steady repetition of each quantity at each width."""
    rows = {"hidden": [], "c_ms": [], "half_ms": [], "one_ms": [], "one_wide_ms": [],
            "two_ms": [], "eta": [], "speedup": [], "speedup_wide": [],
            "samples_ms": {"c": [], "half": [], "one": [], "one_wide": [], "two": []}}
    for hidden in plan["hidden_sweep"]:
        stage = Stage(ranks, hidden, plan["shapes"])
        x0 = stage.s()
        samples = ranks.timed({"c": (lambda: stage.c(x0), False),
                               "half": (lambda: stage.half(x0), True),
                               "one": (stage.one, False),
                               "one_wide": (with_every_thread(ranks, stage.one), False),
                               "two": (stage.two, True)},
                              plan["warmup"], plan["sweep_repeats"])
        medians = {name: analysis.summary(times)["median_ms"] for name, times in samples.items()}
        rows["hidden"].append(hidden)
        for name, times in samples.items():
            rows["samples_ms"][name].append(kept(times))
        for name, median in medians.items():
            rows[f"{name}_ms"].append(median)
        rows["eta"].append(medians["c"] / (ranks.size * medians["half"]))
        rows["speedup"].append(medians["one"] / medians["two"])
        rows["speedup_wide"].append(medians["one_wide"] / medians["two"])
    rows["crossing"] = analysis.crossing(rows["c_ms"], rows["speedup"])
    rows["crossing_wide"] = analysis.crossing(rows["c_ms"], rows["speedup_wide"])
    return rows


def environment(ranks: Ranks, backend: str) -> dict:
    """Where the record was taken: host (the writing rank's, ``WRITER_RANK``), device, cores
    and threads (this rank's cores when pinned, torch's intra- and inter-op threads), backend,
    ranks, versions, date; ``hosts`` and ``ranks``, every rank's host, device and cores
    (``every_rank``: a collective, so every rank calls this); on GPUs also
    ``gpu_environment``."""
    if ranks.device.type == "cuda":
        device_name = torch.cuda.get_device_name(ranks.device)
    else:
        device_name = cpu_model()
    everyone = every_rank(ranks)
    return {"host": socket.gethostname(), "device": ranks.device.type, "device_name": device_name,
            "cores_visible": ranks.cores_visible, "threads_per_rank": torch.get_num_threads(),
            "oversubscribed": oversubscribed(everyone, socket.gethostname(), ranks.cores_visible,
                                             torch.get_num_threads()),
            "interop_threads": torch.get_num_interop_threads(),
            "pinned_cores_rank0": ranks.pinned_cores,
            "backend": backend, "world_size": ranks.size,
            "nodes": ranks.size // ranks.local_size, "torch_version": torch.__version__,
            "python_version": platform.python_version(), "platform": platform.platform(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "hosts": hosts(everyone), "ranks": everyone,
            "gpu": gpu_environment() if ranks.device.type == "cuda" else None}


def this_rank(ranks: Ranks, environ=os.environ) -> dict:
    """What one rank says of itself for the record: its host, local rank, device (``cuda:0``),
    the cores it may use and those it is pinned to, the threads it runs (``process_threads``)
    and the GPUs it was shown (CUDA_VISIBLE_DEVICES, None where unset)."""
    return {"host": socket.gethostname(), "local_rank": ranks.local_rank,
            "device": str(ranks.device), "cores_visible": ranks.cores_visible,
            "pinned_cores": ranks.pinned_cores, "threads": process_threads(),
            "cuda_visible_devices": environ.get("CUDA_VISIBLE_DEVICES")}


def scheduler(ranks: Ranks, ticks_before: dict | None, switches_main: list) -> dict:
    """What the operating system did to the run: the kernel's tick rate (``kernel_tick_hz``),
    the share of the machine's CPU time the hypervisor stole since ``ticks_before`` (taken when
    the timing began), and each rank's involuntary context switches during the main run
    (``switches_main``, this rank's, gathered in rank order)."""
    every = gathered(ranks, [float(count) for count in switches_main])
    return {"kernel_tick_hz": kernel_tick_hz(), "steal_share": steal_share(ticks_before, cpu_ticks()),
            "involuntary_switches_main": [int(row[0]) for row in every]}


def every_rank(ranks: Ranks) -> list:
    """``this_rank`` of every rank, in global rank order: one small all-gather of Python
    objects, so that a record of several nodes names every node, not only the writer's."""
    everyone = [None] * ranks.size
    dist.all_gather_object(everyone, this_rank(ranks))
    return everyone


def hosts(everyone: list) -> list:
    """The distinct hosts of ``every_rank``'s list, in the order of their first rank."""
    return list(dict.fromkeys(rank["host"] for rank in everyone))


#: The global rank (``dist.get_rank()``, over every node) that writes the record.
WRITER_RANK = 0


def writes_record(rank: int) -> bool:
    """Whether the rank of global rank ``rank`` writes the record: rank 0 alone, on whichever
    node it runs. Not each node's local rank 0: on two nodes they would both write, and on a
    shared file system the same path. With torchrun's c10d rendezvous, ``--node-rank`` is
    ignored and the rendezvous decides which node holds global rank 0, so the record names
    that node (``environment.host``) and every node's local rank 0 prints where the record
    went (``announce_writer``); with the static rendezvous it is node rank 0."""
    return rank == WRITER_RANK


def write_if_writer(ranks: Ranks, path, record: dict, write=analysis.write_record) -> bool:
    """Write ``record`` to ``path`` with ``write`` on the rank that ``writes_record`` names;
    whether this rank wrote."""
    if not writes_record(ranks.rank):
        return False
    write(path, record)
    return True


def announce_writer(ranks: Ranks, record: dict, path, stream=sys.stdout) -> None:
    """On each node's local rank 0, say which rank and host write the record, and where: on
    several nodes without a shared file system it is on that host only."""
    if ranks.local_rank == 0:
        writer = record["environment"]["ranks"][WRITER_RANK]["host"]
        print(f"measure: rank {WRITER_RANK}, on {writer}, writes the record to {path}"
              + ("" if writer == socket.gethostname() else " on that host"),
              file=stream, flush=True)


def nccl_version(available=None, version=None):
    """The NCCL that torch runs with, as "2.28.9" (``torch.cuda.nccl.version()``, the library
    torch loaded), or None without CUDA. Not the NCCL_VERSION environment variable that some
    containers set: that names the container's NCCL, which torch may not use (the H200 probe's
    container said 2.28.3-1 while torch ran 2.28.9). ``available`` and ``version`` default to
    torch's own functions (stand-ins in the tests)."""
    available = torch.cuda.is_available if available is None else available
    version = torch.cuda.nccl.version if version is None else version
    if not available():
        return None
    found = version()
    return ".".join(map(str, found)) if isinstance(found, tuple) else str(found)


def gpu_environment(run=subprocess.run, environ=os.environ) -> dict:
    """What a GPU timing depends on: CUDA, cuDNN and NCCL versions as torch runs them
    (``nccl_version``), the driver and topology as ``nvidia-smi`` reports them (None where the
    tool is absent), the NCCL_* environment variables as they were set
    (``nccl_environment_variables``, the job's or the container's settings: not the NCCL that
    ran), and the matmul precision (TF32 moves an A100's FP32 peak from 19.5 to 156
    TFLOP/s)."""
    def tool(*arguments):
        try:
            done = run(["nvidia-smi", *arguments], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return strip_styles(done.stdout).strip() if done.returncode == 0 else None

    return {"cuda_version": torch.version.cuda,
            "cudnn_version": torch.backends.cudnn.version() if torch.cuda.is_available() else None,
            "nccl_version": nccl_version(),
            "driver_version": tool("--query-gpu=driver_version", "--format=csv,noheader"),
            "gpu_names": tool("--query-gpu=name", "--format=csv,noheader"),
            "topology": tool("topo", "-m"),
            "nccl_environment_variables": {k: v for k, v in sorted(environ.items())
                                           if k.startswith("NCCL_")},
            "tf32_matmul": torch.backends.cuda.matmul.allow_tf32,
            "tf32_cudnn": torch.backends.cudnn.allow_tf32,
            "float32_matmul_precision": torch.get_float32_matmul_precision()}


def strip_styles(text: str) -> str:
    """``text`` without terminal escape sequences (``nvidia-smi topo -m`` underlines its
    header with them, which would reach the record as control characters)."""
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)


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
    parser.add_argument("--no-pin", action="store_true",
                        help="leave gloo ranks unpinned too (NCCL ranks never are pinned here: "
                             "see cores_to_pin; the record says which cores each rank had)")
    parser.add_argument("--timeout-s", type=float, default=600.0,
                        help="a collective that waits longer than this fails every rank")
    # For the tests: make the last rank fail or stall after joining the group.
    parser.add_argument("--inject-fault", choices=("crash", "stall"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def refuse_one_rank(world_size: int, program: str = "measure.worker",
                    one_device: str = "`torchrun --nproc-per-node 1 -m measure.gpu_probe --out "
                                      "FILE.json` times S, C and its shares") -> None:
    """The split needs a second rank to split over: at world size 1 there is no collective to
    time or fit, so the run stops before it starts and says what one device can measure
    (``one_device``: a command and what it times)."""
    if world_size < 2:
        raise SystemExit(f"{program}: the split needs at least 2 ranks (WORLD_SIZE); got "
                         f"{world_size}. On one GPU, {one_device}.")


def main(argv=None) -> int:
    args = arguments(argv)
    os.environ.update(launcher_environment(os.environ))     # srun without torchrun
    refuse_one_rank(int(os.environ.get("WORLD_SIZE", 1)))
    torch.set_num_threads(args.threads_per_rank)
    ranks = Ranks(args.backend, args.timeout_s, pinned=not args.no_pin)
    try:
        if args.inject_fault and ranks.rank == ranks.size - 1:
            if args.inject_fault == "crash":
                raise RuntimeError("injected fault: this rank crashed on purpose")
            time.sleep(10 * args.timeout_s)
        started_s, ticks = time.monotonic(), cpu_ticks()
        plan = {**(QUICK if args.quick else FULL), "shapes": scaled_shapes(ranks)}
        switches = involuntary_switches()
        main_run = measure_main(ranks, plan)
        switches = involuntary_switches() - switches
        trace, allreduce = measure_trace(ranks, plan), measure_allreduce(ranks, plan)
        sweep = measure_c_sweep(ranks, plan)
        # after the timing, so that every thread the run starts (gloo's too) is counted
        record = {
            "schema": analysis.SCHEMA,
            "environment": {**environment(ranks, args.backend),
                            "scheduler": scheduler(ranks, ticks, [switches])},
            "protocol": {"warmup": plan["warmup"], "repeats": plan["repeats"],
                         "sweep_repeats": plan["sweep_repeats"], "dtype": "float32",
                         "min_sample_ms": MIN_SAMPLE_MS, "min_c_ms": MIN_C_MS,
                         "shapes": plan["shapes"], "quick": args.quick,
                         "baseline": "T1 and C on rank 0 alone, with the same threads per rank; "
                                     "one_wide: T1 with every rank's threads",
                         "duration_s": time.monotonic() - started_s},
            "main": main_run, "trace": trace, "allreduce": allreduce, "c_sweep": sweep,
        }
        record["protocol"]["skew_ms"] = {key: value for key, value in
                                         analysis.summary(ranks.skew_ms).items()
                                         if key in ("median_ms", "p90_ms", "max_ms")} \
            if ranks.skew_ms else None
        write_if_writer(ranks, args.out, record)
        announce_writer(ranks, record, args.out)
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
