"""One rank of article 2's check: a transformer layer in PyTorch's tensor parallelism, its
collectives counted by CommDebugMode, and its compute and communication timed.

Started by ``torchrun`` (``python -m measure tp`` starts it for you), once per rank::

    torchrun --standalone --nproc-per-node 2 -m measure.tp_worker --out data/measurements/tp-x.json

gloo ranks run on CPUs; NCCL ranks (``--backend nccl``, one GPU per rank) hold the layer, its
inputs and every buffer on their GPU and time with CUDA events (``measure.worker``), and the
record carries the GPU environment. On GPUs the run is BF16 (counts, correctness and timings)
and every timed shape has at least 4096 tokens b·s (``plan_for``): the CPU's FP32 shapes would
time DTensor's dispatch there, not R. The NCCL path has not been run by this project on two or
more GPUs (its machines have none, or one).

On every rank the same whole layer (``measure.tp_layer``) is built from one seed and split
over the ranks. Five things are taken:

1. **correctness**: the split layer's output and input gradient against the whole layer's;
2. **counts**: every collective of one forward and backward pass, without and with sequence
   parallelism, by kind, module, pass and bytes (CommDebugMode);
3. **the machine's P and B, apart from the layer**: one rank's FLOP/s on the MLP's largest
   matrix product, and the all-reduce bandwidth V/t at a message of ``BANDWIDTH_BYTES``;
4. **a sweep over h**: the whole layer's forward and backward pass on rank 0 alone (t = 1),
   with one rank's threads and with all ranks' threads, the split layer's on all ranks, and the
   all-reduces it issued, alone (zero buffers made beforehand); the split layer's time less
   its all-reduces', repetition by repetition, is what it spends besides them;
5. **a sweep over b·s**: the same at one width for several sequence lengths, since the
   article's R = t·P·d/(18·h·B) claims that b·s cancels out.

Timing as in ``measure.worker``: a barrier before each repetition, the slowest rank's time,
warm-up repetitions dropped. Rank 0 writes the record atomically. Times in ms, sizes in bytes.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import torch
import torch.distributed as dist

from measure import analysis, tp_analysis, tp_layer
from measure.worker import (Ranks, announce_writer, environment, launcher_environment,
                            refuse_one_rank, write_if_writer)

#: The layer's input (b, s) at every width, and the widths h of the sweep; then, at one width
#: (``token_hidden``), the sequence lengths s of the sweep over b·s; the dtype of everything
#: the run builds. On CPUs (gloo), FP32 and small shapes, which this project's 2 cores time in
#: minutes.
FULL = {"batch": 2, "seq_len": 64, "hidden": [128, 256, 512, 1024, 2048], "count_hidden": 256,
        "token_hidden": 512, "token_seq_lens": [16, 64, 256, 1024], "warmup": 3, "repeats": 15,
        "dtype": "float32"}
QUICK = {"batch": 2, "seq_len": 32, "hidden": [128, 256], "count_hidden": 128,
         "token_hidden": 128, "token_seq_lens": [16, 64], "warmup": 1, "repeats": 3,
         "dtype": "float32"}
#: On GPUs (NCCL): BF16, the precision large models are trained in on GPUs, and at least
#: GPU_MIN_TOKENS tokens b·s at every timed shape, up to h = 8192. At the CPU's b·s = 128 and
#: h ≤ 2048 a GPU's layer lasts tens of microseconds, which times DTensor's dispatch and the
#: kernel launches, not the compute and communication whose ratio R is.
GPU_MIN_TOKENS = 4096
GPU_FULL = {"batch": 2, "seq_len": 2048, "hidden": [1024, 2048, 4096, 8192], "count_hidden": 256,
            "token_hidden": 4096, "token_seq_lens": [2048, 4096, 8192], "warmup": 3,
            "repeats": 15, "dtype": "bfloat16"}
GPU_QUICK = {"batch": 2, "seq_len": 2048, "hidden": [1024, 2048], "count_hidden": 128,
             "token_hidden": 1024, "token_seq_lens": [2048, 4096], "warmup": 1, "repeats": 3,
             "dtype": "bfloat16"}
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


def plan_for(device_type: str, quick: bool) -> dict:
    """The plan for ranks on ``device_type`` ("cpu" or "cuda"): FULL or QUICK on CPUs, as the
    committed CPU record was taken; GPU_FULL or GPU_QUICK on GPUs (BF16, b·s ≥ GPU_MIN_TOKENS
    at every timed shape)."""
    if device_type == "cuda":
        return GPU_QUICK if quick else GPU_FULL
    return QUICK if quick else FULL


#: The all-reduce message at which B is taken: large enough for the bandwidth to dominate.
BANDWIDTH_BYTES = 16 * 2 ** 20
BANDWIDTH_BYTES_QUICK = 2 ** 20


def fwd_bwd(layer, x):
    """One forward and backward pass of ``layer`` on a fresh leaf copy of ``x``, ended by
    reading its input gradient (so that the last all-reduce, which sums that gradient and
    which DTensor issues asynchronously, has finished when the timer stops)."""
    leaf = x.detach().requires_grad_(True)
    layer(leaf).sum().backward()
    leaf.grad.view(-1)[0].item()
    return leaf


def correctness(ranks: Ranks, plan: dict, sequence_parallel: bool) -> dict:
    """Largest absolute differences of the split layer's output and input gradient from the
    whole layer's (on this rank's share of the sequence with ``sequence_parallel``)."""
    hidden = plan["count_hidden"]
    whole = tp_layer.build(hidden).to(ranks.device)
    split = tp_layer.parallel(whole, ranks.size, sequence_parallel, ranks.device.type)
    x = tp_layer.seeded_input(plan["batch"], plan["seq_len"], hidden, ranks.device)
    x_whole = x.detach().requires_grad_(True)
    y_whole = whole(x_whole)
    y_whole.sum().backward()
    x_mine = tp_layer.local_input(x, ranks.rank, ranks.size, sequence_parallel)
    x_split = x_mine.detach().requires_grad_(True)
    y_split = split(x_split)
    y_split.sum().backward()
    mine = tp_layer.local_input(y_whole.detach(), ranks.rank, ranks.size, sequence_parallel)
    grad = tp_layer.local_input(x_whole.grad, ranks.rank, ranks.size, sequence_parallel)
    worst = torch.tensor([float((y_split.detach() - mine).abs().max()),
                          float((x_split.grad - grad).abs().max())], dtype=torch.float64,
                         device=ranks.device)
    dist.all_reduce(worst, op=dist.ReduceOp.MAX)
    return {"output": worst[0].item(), "input_grad": worst[1].item()}


def counts(ranks: Ranks, plan: dict, sequence_parallel: bool) -> list:
    """The collectives of one forward and backward pass, as CommDebugMode lists them."""
    return tp_layer.counted(plan["batch"], plan["seq_len"], plan["count_hidden"], ranks.size,
                            sequence_parallel, ranks.device)


def peak(ranks: Ranks, plan: dict, quick: bool) -> dict:
    """P: one rank's FLOP/s on the MLP's product (b·s × h) · (h × 4h) at the largest h, the
    other ranks idle; B: V/t of an all-reduce of V bytes (the article's B: one all-reduce takes
    V/B). Operands and the buffer, in the run's dtype (torch's default, set by ``main``), are
    made before the timer starts."""
    hidden = max(plan["hidden"])
    rows = plan["batch"] * plan["seq_len"]
    a = torch.randn(rows, hidden, device=ranks.device)
    w = torch.randn(hidden, tp_layer.MLP_FACTOR * hidden, device=ranks.device)
    v_bytes = BANDWIDTH_BYTES_QUICK if quick else BANDWIDTH_BYTES
    # zeros, in the run's dtype: the sums never overflow
    buffer = torch.zeros(v_bytes // a.element_size(), device=ranks.device)
    times = ranks.timed({"matmul": (lambda: a @ w, False),
                         "allreduce": (lambda: dist.all_reduce(buffer), True)},
                        plan["warmup"], plan["repeats"])
    matmul_ms = analysis.summary(times["matmul"])["median_ms"]
    allreduce_ms = analysis.summary(times["allreduce"])["median_ms"]
    return {"matmul_shape": [rows, hidden, tp_layer.MLP_FACTOR * hidden],
            "matmul_ms": matmul_ms,
            "flops_per_s": 2 * rows * hidden * tp_layer.MLP_FACTOR * hidden / (matmul_ms / 1e3),
            "allreduce_bytes": v_bytes, "allreduce_ms": allreduce_ms,
            "bandwidth_bytes_per_s": v_bytes / (allreduce_ms / 1e3)}


#: What ``timed_layer`` gives at one (b, s, h): a sweep's lists after its varied quantity,
#: named as the record's check names them.
TIMED = tp_analysis.SWEEP_LISTS[1:]


def timed_layer(ranks: Ranks, plan: dict, batch: int, seq_len: int, hidden: int,
                allreduces: int) -> dict:
    """At input (``batch``, ``seq_len``) and width ``hidden``, the medians of: the whole layer
    on rank 0 with one rank's threads (``one_ms``) and with all ranks' threads
    (``one_all_threads_ms``; on a GPU the same GPU, the CPU threads being all that changes),
    the others idle; the split layer on all ranks (``tp_ms``); its ``allreduces`` all-reduces
    of b·s·h floats alone (``comm_ms``, buffers made beforehand); and, repetition by
    repetition, the split layer's time less its all-reduces' (``rest_ms``, with its p10 and
    p90): what the split layer spends besides the all-reduces timed alone."""
    own_threads, all_threads = torch.get_num_threads(), torch.get_num_threads() * ranks.size
    whole = tp_layer.build(hidden).to(ranks.device)
    split = tp_layer.parallel(whole, ranks.size, False, ranks.device.type)
    x = tp_layer.seeded_input(batch, seq_len, hidden, ranks.device)
    buffers = [torch.zeros(x.shape, device=ranks.device) for _ in range(allreduces)]

    def the_allreduces():
        for buffer in buffers:
            dist.all_reduce(buffer)

    def with_all_threads():
        torch.set_num_threads(all_threads)
        try:
            fwd_bwd(whole, x)
        finally:
            torch.set_num_threads(own_threads)

    times = ranks.timed({"one": (lambda: fwd_bwd(whole, x), False),
                         "one_all_threads": (with_all_threads, False),
                         "tp": (lambda: fwd_bwd(split, x), True),
                         "comm": (the_allreduces, True)},
                        plan["warmup"], plan["repeats"])
    rest = analysis.summary([t - c for t, c in zip(times["tp"], times["comm"])])
    medians = {f"{name}_ms": analysis.summary(times[name])["median_ms"]
               for name in ("one", "one_all_threads", "tp", "comm")}
    return medians | {"rest_ms": rest["median_ms"], "rest_p10_ms": rest["p10_ms"],
                      "rest_p90_ms": rest["p90_ms"]}


def timed_rows(ranks: Ranks, plan: dict, shapes: list, allreduces: int) -> dict:
    """``timed_layer`` at each (b, s, h) of ``shapes``: one list per quantity of TIMED."""
    rows = {key: [] for key in TIMED}
    for batch, seq_len, hidden in shapes:
        timed = timed_layer(ranks, plan, batch, seq_len, hidden, allreduces)
        for key in TIMED:
            rows[key].append(timed[key])
    return rows


def sweep(ranks: Ranks, plan: dict, allreduces: int) -> dict:
    """``timed_layer`` over the widths h, at the plan's b and s."""
    shapes = [(plan["batch"], plan["seq_len"], hidden) for hidden in plan["hidden"]]
    return {"hidden": list(plan["hidden"])} | timed_rows(ranks, plan, shapes, allreduces)


def token_sweep(ranks: Ranks, plan: dict, allreduces: int) -> dict:
    """``timed_layer`` over the sequence lengths s at the plan's b and one width h: the
    article's R has neither b nor s in it, since its communication and its computation both
    grow in proportion to b·s, and this sweep asks whether the layer's do."""
    shapes = [(plan["batch"], seq_len, plan["token_hidden"]) for seq_len in plan["token_seq_lens"]]
    return {"hidden": plan["token_hidden"], "batch": plan["batch"],
            "seq_len": list(plan["token_seq_lens"])} | timed_rows(ranks, plan, shapes, allreduces)


def arguments(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="measure.tp_worker", description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="the record's path (.json)")
    parser.add_argument("--backend", default="gloo", choices=("gloo", "nccl"))
    parser.add_argument("--quick", action="store_true", help="fewer widths and repetitions")
    parser.add_argument("--threads-per-rank", type=int, default=1)
    parser.add_argument("--timeout-s", type=float, default=600.0,
                        help="a collective that waits longer than this fails every rank")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = arguments(argv)
    os.environ.update(launcher_environment(os.environ))     # srun without torchrun
    refuse_one_rank(int(os.environ.get("WORLD_SIZE", 1)), "measure.tp_worker",
                    "`python -m measure.tp_gpu_probe --out FILE.json` times one rank's share of "
                    "the layer for t = 1, 2, 4 and 8")
    torch.set_num_threads(args.threads_per_rank)
    # Not pinned: the one-process baseline with every rank's threads needs every core.
    ranks = Ranks(args.backend, args.timeout_s, pinned=False)
    started = time.perf_counter()
    plan = plan_for(ranks.device.type, args.quick)
    # Every layer, input and buffer the run makes takes torch's default dtype (tp_layer builds
    # them so): BF16 on GPUs, for the counts (their bytes are BF16 messages, as the protocol's
    # bytes_per_value says) and the correctness check as well as the timings.
    before = torch.get_default_dtype()
    torch.set_default_dtype(DTYPES[plan["dtype"]])
    try:
        record = {
            "schema": tp_analysis.SCHEMA,
            "environment": environment(ranks, args.backend),
            "protocol": {key: plan[key] for key in
                         ("batch", "seq_len", "hidden", "count_hidden", "token_hidden",
                          "token_seq_lens", "warmup", "repeats")}
            | {"dtype": plan["dtype"],
               "bytes_per_value": torch.empty(0, dtype=DTYPES[plan["dtype"]]).element_size(),
               "heads": tp_layer.heads_for(plan["count_hidden"]),
               "head_width": tp_layer.HEAD_WIDTH, "min_heads": tp_layer.MIN_HEADS,
               "mlp_factor": tp_layer.MLP_FACTOR, "quick": args.quick,
               "baseline": "the whole layer on rank 0 alone, with the same threads per rank"},
            "correctness": {"tp": correctness(ranks, plan, False),
                            "sp": correctness(ranks, plan, True)},
            "collectives": {"tp": counts(ranks, plan, False), "sp": counts(ranks, plan, True)},
            "peak": peak(ranks, plan, args.quick),
        }
        allreduces = sum(event["kind"] == "all_reduce" for event in record["collectives"]["tp"])
        record["sweep"] = sweep(ranks, plan, allreduces)
        record["token_sweep"] = token_sweep(ranks, plan, allreduces)
        record["protocol"]["seconds"] = round(time.perf_counter() - started, 1)
        write_if_writer(ranks, args.out, record, tp_analysis.write_record)
        announce_writer(ranks, record, args.out)
    finally:
        torch.set_default_dtype(before)
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
