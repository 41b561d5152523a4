"""Run article 1's measurement protocol on this machine and write a record.

    python -m measure                       # two CPU ranks with gloo, the full protocol
    python -m measure --quick --out /tmp/m  # about a minute
    python -m measure --backend nccl --nproc-per-node 8
    python -m measure --tp                  # article 2: a tensor-parallel layer, counted and timed

Starts ``torchrun --standalone`` with one process per rank (``measure.worker``), waits at most
``--timeout-s`` seconds, and prints the model's prediction against the measurement. The record
goes to ``<out>/<name>.json``; nothing is written unless every rank finished. Across several
nodes, start ``measure.worker`` with torchrun or srun yourself (docs/measuring.md).
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import os
import pathlib
import re
import signal
import subprocess
import sys

from measure import analysis, tp_analysis


def positive(kind, name: str, low: float):
    """An argparse type: a finite number of ``kind`` no smaller than ``low``, named on error."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or value < low:
            raise argparse.ArgumentTypeError(
                f"{name} must be {'an integer' if kind is int else 'a number'} ≥ {low}; got {text!r}")
        return value
    return parse


def record_name(text: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", text):
        raise argparse.ArgumentTypeError(
            f"--name must be letters, digits, '.', '_' or '-' (a file name); got {text!r}")
    return text


#: Where a run writes unless it names its record (an ignored folder): never data/measurements,
#: whose records the book shows and which only a run asked for by --name replaces.
SCRATCH_OUT = analysis.ROOT / "_build" / "measurements"


def arguments(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m measure", description=__doc__.split("\n")[0],
                                     epilog="The record is described in measure/analysis.py.")
    parser.add_argument("--out", type=pathlib.Path,
                        help="folder for the record (default: "
                             f"{SCRATCH_OUT.relative_to(analysis.ROOT)}; a full run given --name: "
                             "data/measurements, replacing the book's record of that name)")
    parser.add_argument("--name", type=record_name,
                        help="record name (default: <device>-<backend>-<ranks>x<threads>)")
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repetitions")
    parser.add_argument("--no-pin", action="store_true",
                        help="article 1: leave the ranks unpinned (by default each gloo rank "
                             "is pinned to two cores of its own where there are enough; NCCL "
                             "ranks are never pinned by the worker: bind them with the launcher, "
                             "see docs/measuring.md)")
    parser.add_argument("--tp", action="store_true",
                        help="article 2 instead: a transformer layer in PyTorch's tensor "
                             "parallelism, its collectives counted and its parts timed "
                             "(measure/tp_worker.py; the record is named tp-…)")
    parser.add_argument("--backend", default="gloo", choices=("gloo", "nccl"),
                        help="gloo for CPU processes, nccl for GPUs (default: gloo)")
    parser.add_argument("--nproc-per-node", type=positive(int, "--nproc-per-node", 2), default=2,
                        help="ranks on this machine, at least 2 (default: 2)")
    parser.add_argument("--threads-per-rank", type=positive(int, "--threads-per-rank", 1),
                        default=1, help="CPU threads per rank and for the baseline (default: 1)")
    parser.add_argument("--timeout-s", type=positive(float, "--timeout-s", 1), default=900.0,
                        help="give up after this many seconds (default: 900)")
    parser.add_argument("--inject-fault", choices=("crash", "stall"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    into_book = args.out is not None and args.out.resolve() == analysis.RECORDS.resolve()
    if args.out is None:
        args.out = analysis.RECORDS if args.name and not args.quick else SCRATCH_OUT
    elif into_book and args.quick and not (args.name or "").endswith("-quick"):
        parser.error(f"--quick writes a short run, not a record for the book: choose another "
                     f"--out than {analysis.RECORDS}, or a --name ending in -quick (a record "
                     f"the book marks as a quick run)")
    elif into_book and not args.name:
        parser.error(f"a run replaces a record in {analysis.RECORDS} only when it names it: add "
                     f"--name (make measure NAME=cpu-gloo-2x1), or choose another --out")
    return args


def main(argv=None) -> int:
    args = arguments(argv)
    # Only found, not imported: importing torch takes some 3 CPU-seconds, which the launcher
    # and each rank pay on their own; this process never uses it.
    if importlib.util.find_spec("torch") is None:
        print("measure: torch is not installed; run `make measure` (it installs "
              "requirements-measure.txt) or `pip install -r requirements-measure.txt`",
              file=sys.stderr)
        return 2
    device = "cuda" if args.backend == "nccl" else "cpu"
    name = args.name or (f"{'tp-' if args.tp else ''}{device}-{args.backend}-"
                         f"{args.nproc_per_node}x{args.threads_per_rank}")
    target = args.out / f"{name}.json"
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone",
               f"--nproc-per-node={args.nproc_per_node}", "-m",
               "measure.tp_worker" if args.tp else "measure.worker",
               "--out", str(target), "--backend", args.backend,
               "--threads-per-rank", str(args.threads_per_rank),
               "--timeout-s", str(max(1.0, args.timeout_s / 2))]
    command += ["--quick"] if args.quick else []
    command += ["--no-pin"] if args.no_pin and not args.tp else []
    if args.inject_fault and args.tp:
        print("measure: --inject-fault is for article 1's worker only", file=sys.stderr)
        return 2
    command += ["--inject-fault", args.inject_fault] if args.inject_fault else []
    threads = str(args.threads_per_rank)
    env = {**os.environ, "OMP_NUM_THREADS": threads, "MKL_NUM_THREADS": threads,
           "PYTHONPATH": os.pathsep.join([str(analysis.ROOT), os.environ.get("PYTHONPATH", "")])}
    before = target.stat().st_mtime_ns if target.exists() else None
    print(f"measure: {args.nproc_per_node} ranks, {args.backend}, {threads} thread(s) per rank"
          f"{', quick' if args.quick else ''} -> {target}", flush=True)
    process = subprocess.Popen(command, env=env, start_new_session=True)
    try:
        code = process.wait(timeout=args.timeout_s)
    except subprocess.TimeoutExpired:
        stop(process)
        print(f"measure: timed out after {args.timeout_s:g} s (--timeout-s); every rank was "
              f"stopped and no record was written to {target}", file=sys.stderr)
        return 1
    written = target.exists() and target.stat().st_mtime_ns != before
    if code != 0 or not written:
        print(f"measure: a rank failed (torchrun exit code {code}; its error is above); "
              f"no record was written to {target}", file=sys.stderr)
        return 1
    if args.tp:
        report_tp(tp_analysis.load(str(target)), target)
    else:
        report(analysis.load(name, args.out), target)
    return 0


def stop(process: subprocess.Popen, grace_s: float = 10.0) -> None:
    """End torchrun and every rank: SIGTERM first, which torchrun passes on to the ranks it
    started (they run in sessions of their own, out of reach of a signal to its group), then
    SIGKILL to whatever is left of its group after ``grace_s`` seconds."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def report(record: dict, target: pathlib.Path | None = None) -> None:
    """Print the machine, the fitted parameters, the model's prediction against the
    measurement (one line per quantity, the error defined), a verdict and where the record is."""
    comparison = analysis.compare(record)
    env = record["environment"]
    print(f"machine: {env['device_name']}, {env['world_size']} ranks × {env['threads_per_rank']} "
          f"thread(s), {env['backend']}, {env['cores_visible']} cores visible")
    fit = record["allreduce"]["fit"]
    print(f"fit: ℓ = {fit['ell_ms']:.4f} ms, B = {fit['bandwidth_bytes_per_s'] / 1e9:.3f} GB/s "
          f"(R² = {fit['r2']:.4f}); η = {record['main']['eta']:.3f}")
    for key in ("one_ms", "two_ms", "speedup", "break_even_c_ms"):
        row = comparison[key]
        error = comparison["relative_error"][key]
        shown = "—" if row["predicted"] is None or row["measured"] is None else (
            f"predicted {row['predicted']:.4g}, measured {row['measured']:.4g}, "
            f"error {100 * error:+.1f} %")
        print(f"{key}: {shown}" + (f" ({row['reason']})" if row.get("reason") else ""))
    held = analysis.held_out(record)
    confidence = f"{100 * analysis.CONFIDENCE:.0f} %"
    print(f"held out (parameters fitted on component runs, the compared times not used; "
          f"{confidence} bootstrap intervals of the error):")
    for name, row in held.items():
        low, high = row["interval"]
        print(f"  {name}: predicted {row['predicted_ms']:.3f} ms, measured "
              f"{row['measured_ms']:.3f} ms, error {100 * row['error']:+.1f} % "
              f"[{100 * low:+.1f}, {100 * high:+.1f}] %"
              f"{' (within the noise)' if row['within_noise'] else ''}")
    judged = analysis.verdict(record, held)
    n = env["world_size"]
    # "predicts within 33.1 %" once read as a success for an error well outside the noise
    claim = (f"the ledger predicts this machine's T{n} within the measurement's noise"
             if judged["within_noise"] else
             f"the ledger misses this machine's T{n} by more than the measurement's noise")
    print(f"verdict: {claim} "
          f"(error = (predicted − measured)/measured = {100 * judged['error']:+.1f} %, "
          f"{confidence} interval [{100 * judged['interval'][0]:+.1f}, "
          f"{100 * judged['interval'][1]:+.1f}] %)"
          + (f"; {env['world_size']} ranks on {env['cores_visible']} cores: oversubscribed"
             if env["oversubscribed"] else ""))
    if target is not None:
        print(f"record: {target}")


def report_tp(record: dict, target: pathlib.Path) -> None:
    """Print what PyTorch communicated per layer against article 2's count, and the measured
    R = T_comm/T_calc against R = t·P·d/(18·h·B) with this machine's P and B."""
    counts = tp_analysis.counts_against_article(record)
    article, plan = counts["article"], counts["tp"]
    peak = record["peak"]
    print(f"per layer: PyTorch issued {plan['count']} collectives "
          f"({', '.join(f'{n} {k}' for k, n in plan['by_kind'].items())}) of "
          f"{', '.join(map(str, plan['message_bytes']))} bytes; the article says "
          f"{article['count']} all-reduces of {article['message_bytes']:g} bytes: "
          f"{'agrees' if counts['tp_agrees'] else 'DISAGREES'}")
    print(f"with sequence parallelism: {counts['sp']['count']} collectives, "
          f"{counts['sp']['sent_per_device_bytes']:g} bytes sent per device "
          f"({'the same as' if counts['sp_same_volume'] else 'not the same as'} without)")
    print(f"this machine: P = {peak['flops_per_s'] / 1e9:.1f} GFLOP/s per rank, "
          f"B = {peak['bandwidth_bytes_per_s'] / 1e9:.3f} GB/s (all-reduce of "
          f"{peak['allreduce_bytes']} bytes)")
    for row in tp_analysis.sweep_rows(record):
        measured = "—" if row["ratio"] is None else f"{row['ratio']:.3f}"
        print(f"h = {row['hidden']}: R measured {measured} (comm {row['comm_ms']:.2f} ms, "
              f"calc {row['calc_ms']:.2f} ms), article's R {row['predicted_ratio']:.3f}; "
              f"speedup T(1)/T(t) = {row['speedup']:.2f}")
    for row in tp_analysis.token_rows(record):
        measured = "—" if row["ratio"] is None else f"{row['ratio']:.3f}"
        print(f"b·s = {row['tokens']} at h = {record['token_sweep']['hidden']}: R measured "
              f"{measured} (comm {row['comm_ms']:.2f} ms, calc {row['calc_ms']:.2f} ms), "
              f"article's R {row['predicted_ratio']:.3f}")
    print(f"record: {target}")


if __name__ == "__main__":
    sys.exit(main())
