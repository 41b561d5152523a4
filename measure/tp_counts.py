"""Article 2's collectives counted through a whole training step, at several degrees t.

One rank of the count, started by ``torchrun`` once per rank (``python -m measure.tp_counts``
starts it for t = 2, 4 and 8 and gathers the counts into one record)::

    torchrun --standalone --nproc-per-node 4 -m measure.tp_counts --worker --out /tmp/t4.json

Each rank builds the same whole layer (``measure.tp_layer``) from one seed, splits it over the t
gloo ranks, without and with sequence parallelism, and runs one forward pass, one backward pass,
the reduction of the gradients DTensor leaves partial and an SGD step under CommDebugMode
(``tp_layer.count_step``). It then gathers every parameter's gradient whole and compares it with
the whole layer's. Counting needs no speed, so t ranks may share fewer cores. Sizes in bytes.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys

from measure import analysis, tp_analysis

#: The degrees counted, and the layer's input (b, s, h): every degree divides s and the heads.
DEGREES = (2, 4, 8)
SHAPE = {"batch": 2, "seq_len": 16, "hidden": 64}
NAME = "tp-counts-gloo"
SCHEMA = "measure-tp-counts/1"


def count_degree(sequence_parallel: bool) -> dict:
    """On this rank of the default group: the collectives of one training step of the split
    layer, and each parameter's largest gradient difference from the whole layer's."""
    import torch.distributed as dist

    from measure import tp_layer
    rank, size = dist.get_rank(), dist.get_world_size()
    whole = tp_layer.build(SHAPE["hidden"])
    split = tp_layer.parallel(whole, size, sequence_parallel)
    x = tp_layer.seeded_input(SHAPE["batch"], SHAPE["seq_len"], SHAPE["hidden"])
    whole(x.detach().requires_grad_(True)).sum().backward()
    events = tp_layer.count_step(split, tp_layer.local_input(x, rank, size, sequence_parallel))
    return {"collectives": events, "gradient_differences":
            tp_layer.gradient_differences(split, whole)}


def worker(out: pathlib.Path) -> int:
    """One rank: count both plans; rank 0 writes {t, tp, sp} to ``out``."""
    import torch
    import torch.distributed as dist
    torch.set_num_threads(1)
    dist.init_process_group("gloo")
    try:
        found = {"t": dist.get_world_size(), "tp": count_degree(False), "sp": count_degree(True)}
        if dist.get_rank() == 0:
            out.write_text(json.dumps(found, allow_nan=False), encoding="utf-8")
    finally:
        dist.destroy_process_group()
    return 0


def check_record(record: dict) -> dict:
    """Raise ValueError naming the first missing or malformed field; return the record: the
    schema, the shape, and for each of its degrees (some of DEGREES) both plans' collectives (kind, module, pass,
    bytes in and out) and gradient differences."""
    need = analysis.needing("tp counts record")
    if need(record, "schema", "record") != SCHEMA:
        raise ValueError(f"tp counts record: schema must be {SCHEMA!r}; got {record['schema']!r}")
    need(record, "shape", "record")
    degrees = need(record, "degrees", "record")
    if not degrees or not {int(t) for t in degrees} <= set(DEGREES):
        raise ValueError(f"tp counts record: degrees must be some of {list(DEGREES)}; got "
                         f"{sorted(degrees)}")
    for t, plans in degrees.items():
        for plan in ("tp", "sp"):
            found = need(plans, plan, f"degrees.{t}")
            for event in need(found, "collectives", f"degrees.{t}.{plan}"):
                for key in ("kind", "module", "pass", "in_bytes", "out_bytes"):
                    need(event, key, f"degrees.{t}.{plan}.collectives[]")
            need(found, "gradient_differences", f"degrees.{t}.{plan}")
    return analysis.strict(record, "tp counts record")


def load(directory: pathlib.Path = analysis.RECORDS) -> dict:
    """The committed counts record, checked."""
    return analysis.load(NAME, directory, check=check_record)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m measure.tp_counts", description=__doc__)
    parser.add_argument("--out", type=pathlib.Path, default=analysis.RECORDS / f"{NAME}.json")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--timeout-s", type=float, default=600.0)
    parser.add_argument("--degrees", type=int, nargs="+", choices=DEGREES, default=list(DEGREES),
                        help="the degrees t to count (default: 2 4 8)")
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.out)
    degrees = {}
    env = {**os.environ, "OMP_NUM_THREADS": "1",
           "PYTHONPATH": os.pathsep.join([str(analysis.ROOT), os.environ.get("PYTHONPATH", "")])}
    for t in args.degrees:
        part = args.out.with_name(f".{args.out.stem}-t{t}.json")
        command = [sys.executable, "-m", "torch.distributed.run", "--standalone",
                   f"--nproc-per-node={t}", "-m", "measure.tp_counts", "--worker",
                   "--out", str(part)]
        code = subprocess.run(command, env=env, timeout=args.timeout_s).returncode
        if code != 0 or not part.is_file():
            print(f"tp_counts: the run of {t} ranks failed (exit code {code}); no record written",
                  file=sys.stderr)
            return 1
        found = json.loads(part.read_text(encoding="utf-8"))
        part.unlink()
        degrees[str(t)] = {"tp": found["tp"], "sp": found["sp"]}
    analysis.write_record(args.out, {"schema": SCHEMA, "shape": SHAPE, "degrees": degrees},
                          check_record)
    for t, plans in degrees.items():
        for plan, found in plans.items():
            print(f"t = {t}, {plan}: {tp_analysis.by_pass_and_kind(found['collectives'])}; "
                  f"largest gradient "
                  f"difference {max(found['gradient_differences'].values()):.2e}")
    print(f"record: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
