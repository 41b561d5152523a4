"""The GPU path of measure/ without a GPU: what a rank on a real GPU node would decide, tested
with stand-ins for what this 2-core, GPU-less machine lacks (torch.cuda.device_count, the CPU
affinity, Slurm's and NCCL's environment variables, the all-gather of another node).

- the pinning decision: gloo ranks as before (the committed CPU records stay what the rule
  gives), NCCL ranks never (cores 2r, 2r + 1 ignore the NUMA layout);
- the device: cuda:0 for a rank that sees one GPU, cuda:LOCAL_RANK for one that sees them all;
- Slurm's variables for ranks that srun starts without torchrun;
- the NCCL version torch runs with, apart from the NCCL_* environment variables;
- every rank's host in the record, and global rank 0, alone, writing it;
- tensor parallelism on a GPU timed in BF16 at b·s ≥ 4096;
- every GPU command of docs/measuring.md parsed by torchrun's parser and the worker's.

Like tests/test_measure.py these need torch and skip without it, unless MEASURE_REQUIRED=1.
"""
import io
import json
import pathlib
import re
import shlex
import socket
import types

import pytest

from measure import analysis, tp_analysis
from test_measure import need_torch   # the module pytest imported, not a second copy of it

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture
def worker():
    need_torch()
    from measure import worker
    return worker


# ---- pinning ----------------------------------------------------------------------------------

def test_nccl_ranks_are_never_pinned_and_gloo_ranks_as_before(worker, monkeypatch):
    """On a 16-core node with 8 ranks: gloo pins local rank 5 to cores 10 and 11, as before;
    NCCL leaves it unpinned (on a DGX, cores 10, 11 would be on GPU 5's far socket) and does
    not touch the affinity at all."""
    chosen = []
    monkeypatch.setattr(worker.os, "sched_getaffinity", lambda pid: set(range(16)))
    monkeypatch.setattr(worker.os, "sched_setaffinity", lambda pid, cores: chosen.append(cores))
    assert worker.pin(5, 8, "nccl") is None and chosen == []
    assert worker.cores_to_pin(5, 8, set(range(16)), "nccl") is None
    assert worker.pin(5, 8, "gloo") == [10, 11] and chosen == [{10, 11}]
    assert worker.cores_to_pin(5, 8, list(reversed(range(16))), "gloo") == [10, 11]   # sorted
    assert worker.cores_to_pin(0, 8, set(range(15)), "gloo") is None     # fewer than 2 per rank


@pytest.mark.parametrize("name", ["cpu-gloo-2x1", "cpu-gloo-3x1-quick", "cpu-gloo-4x1-quick"])
def test_the_committed_cpu_records_are_what_the_gloo_rule_still_gives(worker, name):
    """Every committed CPU record was taken unpinned (2 cores, 2 to 4 ranks), and the rule
    kept for gloo still leaves every one of its ranks unpinned: the records stay valid."""
    env = analysis.load(name)["environment"]
    assert env["backend"] == "gloo" and env["pinned_cores_rank0"] is None
    ranks_per_node = env["world_size"] // env["nodes"]
    for local_rank in range(ranks_per_node):
        assert worker.cores_to_pin(local_rank, ranks_per_node, set(range(env["cores_visible"])),
                                   "gloo") is None


def group_stand_ins(worker, monkeypatch, visible: int, local_rank: int, local_size: int):
    """Ranks' surroundings on a 16-core node where this rank sees ``visible`` GPUs: the
    affinity, the GPU count, set_device and the process group, each a stand-in; returns what
    they were called with."""
    calls = {"affinity": [], "set_device": [], "group": []}
    monkeypatch.setenv("LOCAL_RANK", str(local_rank))
    monkeypatch.setenv("LOCAL_WORLD_SIZE", str(local_size))
    monkeypatch.setattr(worker.os, "sched_getaffinity", lambda pid: set(range(16)))
    monkeypatch.setattr(worker.os, "sched_setaffinity",
                        lambda pid, cores: calls["affinity"].append(cores))
    monkeypatch.setattr(worker.torch.cuda, "device_count", lambda: visible)
    monkeypatch.setattr(worker.torch.cuda, "set_device", calls["set_device"].append)
    monkeypatch.setattr(worker.dist, "init_process_group",
                        lambda backend, **options: calls["group"].append((backend, options)))
    monkeypatch.setattr(worker.dist, "get_rank", lambda: 8 + local_rank)
    monkeypatch.setattr(worker.dist, "get_world_size", lambda: 2 * local_size)
    return calls


def test_an_nccl_rank_is_unpinned_and_on_the_one_gpu_it_sees(worker, monkeypatch):
    """Local rank 5 of 8 under `srun --gpus-per-task=1`: it sees one GPU, cuda:0, which it sets
    and names to the group; it is not pinned although 16 cores would allow it for gloo."""
    calls = group_stand_ins(worker, monkeypatch, visible=1, local_rank=5, local_size=8)
    ranks = worker.Ranks("nccl", 60.0)
    cuda0 = worker.torch.device("cuda", 0)
    assert ranks.device == cuda0 and calls["set_device"] == [cuda0]
    assert calls["group"][0][0] == "nccl" and calls["group"][0][1]["device_id"] == cuda0
    assert ranks.pinned_cores is None and calls["affinity"] == []
    assert (ranks.rank, ranks.size, ranks.local_size) == (13, 16, 8)


def test_a_gloo_rank_is_still_pinned_on_the_cpu(worker, monkeypatch):
    calls = group_stand_ins(worker, monkeypatch, visible=0, local_rank=5, local_size=8)
    ranks = worker.Ranks("gloo", 60.0)
    assert ranks.device == worker.torch.device("cpu") and calls["set_device"] == []
    assert ranks.pinned_cores == [10, 11] and calls["affinity"] == [{10, 11}]


# ---- the device -------------------------------------------------------------------------------

def test_the_device_is_chosen_from_the_gpus_the_rank_sees(worker, monkeypatch):
    """One GPU seen (CUDA_VISIBLE_DEVICES=5, Slurm's --gpus-per-task=1): cuda:0, whatever the
    local rank, where cuda:LOCAL_RANK would be an invalid ordinal. Every GPU seen (torchrun on
    a node): cuda:LOCAL_RANK. None, or too few: refused, naming what it saw."""
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "5")
    monkeypatch.setattr(worker.torch.cuda, "device_count", lambda: 1)
    assert worker.rank_device("nccl", 5) == worker.torch.device("cuda", 0)
    assert worker.device_index(3, 1) == 0
    monkeypatch.setattr(worker.torch.cuda, "device_count", lambda: 8)
    assert worker.rank_device("nccl", 5) == worker.torch.device("cuda", 5)
    assert worker.rank_device("gloo", 5) == worker.torch.device("cpu")
    with pytest.raises(SystemExit, match=r"local rank 5 sees 4 GPUs \(CUDA_VISIBLE_DEVICES='5'\)"):
        worker.device_index(5, 4)
    with pytest.raises(SystemExit, match="sees no GPU"):
        worker.device_index(0, 0)


# ---- Slurm without torchrun -------------------------------------------------------------------

SLURM = {"SLURM_PROCID": "13", "SLURM_NTASKS": "16", "SLURM_LOCALID": "5", "SLURM_NODEID": "1",
         "SLURM_TASKS_PER_NODE": "8(x2)", "MASTER_ADDR": "node-a", "MASTER_PORT": "29500"}


def test_a_rank_that_srun_started_takes_its_place_from_slurm(worker):
    """Task 13 of 16, the sixth on the second node of two with 8 tasks each."""
    assert worker.launcher_environment(SLURM) == {
        "RANK": "13", "WORLD_SIZE": "16", "LOCAL_RANK": "5", "LOCAL_WORLD_SIZE": "8"}
    assert worker.launcher_environment({**SLURM, "SLURM_NTASKS_PER_NODE": "4"})[
        "LOCAL_WORLD_SIZE"] == "4"
    assert worker.launcher_environment({**SLURM, "RANK": "13"}) == {}   # torchrun set it
    assert worker.launcher_environment({"PATH": "/bin"}) == {}          # no Slurm
    without = {k: v for k, v in SLURM.items() if k != "MASTER_PORT"}
    with pytest.raises(SystemExit, match="MASTER_PORT is not set"):
        worker.launcher_environment(without)


@pytest.mark.parametrize("text, node, tasks", [("8(x2)", 1, 8), ("2(x3),1", 3, 1),
                                               ("2(x3),1", 0, 2), ("4", 0, 4)])
def test_slurms_tasks_per_node_are_read_for_this_node(worker, text, node, tasks):
    assert worker.slurm_tasks_on_node(text, node) == tasks


def test_slurms_tasks_per_node_that_do_not_read_are_refused(worker):
    with pytest.raises(ValueError, match="tasks per node"):
        worker.slurm_tasks_on_node("8x2", 0)
    with pytest.raises(ValueError, match="node 2 is not among the 2"):
        worker.slurm_tasks_on_node("8(x2)", 2)


# ---- NCCL's version and variables -------------------------------------------------------------

def test_the_record_keeps_the_nccl_torch_runs_apart_from_the_environment_variables(worker,
                                                                                  monkeypatch):
    """The H200 probe's container set NCCL_VERSION=2.28.3-1 while torch ran NCCL 2.28.9: the
    record's nccl_version is torch's (torch.cuda.nccl.version()), and the NCCL_* variables
    are kept under a name that says what they are."""
    monkeypatch.setattr(worker.torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(worker.torch.cuda.nccl, "version", lambda: (2, 28, 9))
    monkeypatch.setattr(worker.torch.backends.cudnn, "version", lambda: 91000)

    def absent(*args, **kwargs):
        raise FileNotFoundError("nvidia-smi")
    found = worker.gpu_environment(run=absent, environ={"NCCL_VERSION": "2.28.3-1",
                                                        "NCCL_DEBUG": "INFO", "PATH": "/bin"})
    assert found["nccl_version"] == "2.28.9"
    assert found["nccl_environment_variables"] == {"NCCL_DEBUG": "INFO",
                                                   "NCCL_VERSION": "2.28.3-1"}
    assert "nccl_variables" not in found
    monkeypatch.setattr(worker.torch.cuda, "is_available", lambda: False)
    assert worker.nccl_version() is None


def test_a_gpu_record_needs_its_nccl_environment_variables_under_either_name(worker):
    """A new record names them nccl_environment_variables; the H200 probes, taken before,
    nccl_variables; a GPU record with neither is refused by the new name."""
    need = analysis.needing("measurement record")
    new = {"gpu": {key: "x" for key in analysis.GPU_KEYS}}
    analysis.check_gpu_fields(new, need)
    before = {"gpu": {key if key != "nccl_environment_variables" else "nccl_variables": "x"
                      for key in analysis.GPU_KEYS}}
    analysis.check_gpu_fields(before, need)
    assert analysis.load_probe()["environment"]["gpu"]["nccl_variables"] == {
        "NCCL_VERSION": "2.28.3-1"}
    del before["gpu"]["nccl_variables"]
    missing = r"environment\.gpu\.nccl_environment_variables is missing"
    with pytest.raises(ValueError, match=missing):
        analysis.check_gpu_fields(before, need)


# ---- every node in the record, and who writes it ----------------------------------------------

def stand_in_ranks(worker, rank=0, local_rank=0, size=2, local_size=1):
    return types.SimpleNamespace(rank=rank, local_rank=local_rank, size=size,
                                 local_size=local_size, device=worker.torch.device("cpu"),
                                 cores_visible=2, pinned_cores=None)


def test_the_record_names_every_nodes_host(worker, monkeypatch):
    """Two nodes of one rank each: the all-gather (a stand-in here, giving the other rank
    another host) puts both hosts in the record, and each rank's device and cores."""
    gathered = []

    def all_gather_object(into, mine):
        gathered.append(mine)
        into[:] = [mine, {**mine, "host": "node-b", "cuda_visible_devices": "3"}]
    monkeypatch.setattr(worker.dist, "all_gather_object", all_gather_object)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    env = worker.environment(stand_in_ranks(worker), "gloo")
    here = socket.gethostname()
    assert env["hosts"] == [here, "node-b"] and env["host"] == here
    assert [rank["host"] for rank in env["ranks"]] == [here, "node-b"]
    assert gathered == [{"host": here, "local_rank": 0, "device": "cpu", "cores_visible": 2,
                         "pinned_cores": None, "threads": worker.process_threads(),
                         "cuda_visible_devices": "1"}]
    json.dumps(env, allow_nan=False)                          # strict JSON in a record
    assert worker.hosts([{"host": "b"}, {"host": "a"}, {"host": "b"}]) == ["b", "a"]


def test_global_rank_zero_alone_writes_the_record(worker, tmp_path):
    """With c10d the first rank of the second node has local rank 0 but global rank 8: it does
    not write; global rank 0 does, whatever node it is on. Each node's local rank 0 says
    which host wrote where; the other local ranks say nothing."""
    written = []
    record = {"environment": {"ranks": [{"host": "node-b"}] + [{"host": "node-a"}] * 15}}
    path = tmp_path / "r.json"
    assert not worker.write_if_writer(stand_in_ranks(worker, rank=8, local_rank=0, size=16,
                                                     local_size=8),
                                      path, record, lambda *a: written.append(a))
    assert written == []
    assert worker.write_if_writer(stand_in_ranks(worker, rank=0, local_rank=0, size=16,
                                                 local_size=8),
                                  path, record, lambda *a: written.append(a))
    assert written == [(path, record)]
    said = io.StringIO()
    worker.announce_writer(stand_in_ranks(worker, rank=8, local_rank=0), record, path, said)
    worker.announce_writer(stand_in_ranks(worker, rank=9, local_rank=1), record, path, said)
    assert said.getvalue().splitlines() == [
        f"measure: rank 0, on node-b, writes the record to {path} on that host"]


# ---- tensor parallelism on a GPU --------------------------------------------------------------

def test_tensor_parallelism_on_a_gpu_is_timed_in_bf16_at_4096_tokens_or_more():
    """On CUDA every timed shape (the sweep over h and the one over b·s) has b·s ≥ 4096 and the
    plan is BF16, up to h = 8192; on the CPU the plan is the one the committed record was
    taken with, FP32, unchanged."""
    need_torch()
    from measure import tp_worker
    for quick in (False, True):
        plan = tp_worker.plan_for("cuda", quick)
        assert plan["dtype"] == "bfloat16"
        assert plan["batch"] * plan["seq_len"] >= tp_worker.GPU_MIN_TOKENS >= 4096
        assert all(plan["batch"] * s >= 4096 for s in plan["token_seq_lens"])
        assert plan["token_hidden"] >= 1024 and min(plan["hidden"]) >= 1024
        assert plan["count_hidden"] % 8 == 0 and all(h % 8 == 0 for h in plan["hidden"])
        assert tp_worker.plan_for("cpu", quick) == (tp_worker.QUICK if quick else tp_worker.FULL)
    assert max(tp_worker.plan_for("cuda", False)["hidden"]) == 8192
    committed = tp_analysis.load()["protocol"]
    cpu = tp_worker.plan_for("cpu", False)
    assert {key: committed[key] for key in cpu} == cpu


def test_the_counts_take_the_runs_dtype_so_the_protocols_bytes_per_value_holds():
    """tp_worker sets torch's default dtype to the plan's (BF16 on GPUs) and records its bytes
    per value; tp_layer builds the layer and input in that default, so a count in BF16 has
    messages of b·s·h·2 bytes, which the analysis sets against the article with d = 2."""
    need_torch()
    import torch
    from measure import tp_layer
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.bfloat16)
    try:
        with tp_layer.fake_group(2):
            events = tp_layer.counted(2, 8, 64, 2, False)
    finally:
        torch.set_default_dtype(before)
    assert events and all(e["in_bytes"] == e["out_bytes"] == 2 * 8 * 64 * 2 for e in events)


# ---- the commands of docs/measuring.md --------------------------------------------------------

def documented_commands() -> list:
    """Every command of docs/measuring.md's bash blocks that starts a worker: continuation
    lines joined, comments (and #SBATCH lines) dropped, split as the shell would."""
    text = (ROOT / "docs" / "measuring.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if "measure.worker" in words or "measure.tp_worker" in words or "torchrun" in words:
                commands.append(words)
    return commands


def test_the_documented_gpu_commands_parse_as_torchrun_and_the_worker_read_them():
    """Each torchrun line parses with torchrun's own parser and hands the worker arguments
    that the worker's parser takes; a c10d rendezvous never comes with --node-rank (which it
    ignores); one node, two nodes and both Slurm ways are there; the direct srun job sets
    MASTER_ADDR and MASTER_PORT, which the worker needs from it."""
    need_torch()
    from torch.distributed.run import get_args_parser
    from measure import tp_worker, worker
    commands = documented_commands()
    kinds = set()
    for words in commands:
        if "torchrun" in words:
            given = words[words.index("torchrun") + 1:]
            parsed = get_args_parser().parse_args(given)
            assert parsed.module, words
            script, script_args = parsed.training_script, parsed.training_script_args
            if parsed.rdzv_backend == "c10d":
                assert "--node-rank" not in given and "--node_rank" not in given, words
                kinds.add("c10d")
            kinds.add("standalone" if parsed.standalone else f"nnodes {parsed.nnodes}")
            kinds.add("srun torchrun" if words[0] == "srun" else "torchrun")
        else:
            script = words[words.index("-m") + 1]
            script_args = words[words.index("-m") + 2:]
            kinds.add("srun python" if words[0] == "srun" else "python")
        if script == "measure.worker":
            args = worker.arguments(script_args)
            assert args.backend in ("gloo", "nccl") and args.out, words
        elif script == "measure.tp_worker":
            assert tp_worker.arguments(script_args).out, words
        else:
            assert script == "measure.gpu_probe", words
    assert {"standalone", "c10d", "nnodes 2", "torchrun", "srun torchrun", "srun python"} <= kinds
    text = (ROOT / "docs" / "measuring.md").read_text(encoding="utf-8")
    direct = text[text.index("#SBATCH --gpus-per-task=1"):]
    direct = direct[:direct.index("```")]
    assert "export MASTER_ADDR=" in direct and "export MASTER_PORT=" in direct


def test_the_launchers_documented_gpu_lines_parse():
    """The `python -m measure …` lines of the GPU section parse with the launcher's parser."""
    need_torch()
    from measure.__main__ import arguments
    text = (ROOT / "docs" / "measuring.md").read_text(encoding="utf-8")
    lines = [shlex.split(line, comments=True) for line in text.splitlines()
             if line.startswith("python -m measure ")]
    assert lines
    for words in lines:
        args = arguments(words[3:])
        assert args.backend == "nccl" and args.nproc_per_node == 8
