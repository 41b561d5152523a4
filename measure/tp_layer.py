"""Article 2's transformer layer in PyTorch's own tensor parallelism, and what it communicates.

A pre-norm layer (norm → attention → residual, norm → MLP → residual) whose four weight
matrices are split Megatron-style by ``torch.distributed.tensor.parallel``: the fused QKV
projection and the MLP's first matrix by columns (``ColwiseParallel``), the attention output
projection and the MLP's second matrix by rows (``RowwiseParallel``) [Shoeybi et al. 2019].
With ``sequence_parallel`` the norms are ``SequenceParallel`` and the activations between the
blocks stay split along the sequence [Korthikanti et al. 2022].

``count`` runs one forward and one backward pass under PyTorch's ``CommDebugMode`` and lists
every collective it issued, with its module, its pass and its bytes, so the book can set them
against the article's 4 all-reduces of b·s·h·d bytes per layer. It works on any process group:
gloo or NCCL ranks under torchrun, or PyTorch's single-process ``fake`` group, which issues no
transfer, so that the counts for any degree t can be taken in one process (``fake_group``).

Shapes: ``x`` is (b, s, h); sizes in bytes.
"""
from __future__ import annotations

import contextlib
import copy

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import (ColwiseParallel, RowwiseParallel,
                                               SequenceParallel, parallelize_module)

#: The width of one attention head, where h allows it (as in GPT-3 and Llama: 128 values), and
#: the fewest heads a layer has, so that every degree t used here (up to 8) divides them.
HEAD_WIDTH = 128
MIN_HEADS = 8


def heads_for(hidden: int) -> int:
    """The layer's attention heads at width ``hidden``: h/HEAD_WIDTH, at least MIN_HEADS (so a
    narrow layer has narrower heads: 8 of 32 values at h = 256)."""
    return max(MIN_HEADS, hidden // HEAD_WIDTH)
#: The MLP's inner width, in multiples of h (the article's 4h).
MLP_FACTOR = 4


class Attention(nn.Module):
    """Self-attention with one fused QKV matrix, its columns ordered head by head (q, k, v
    of head 0, then of head 1, …), so that a split by columns gives each rank whole heads."""

    def __init__(self, hidden: int, heads: int):
        super().__init__()
        if hidden % heads:
            raise ValueError(f"hidden must be a multiple of heads ({heads}); got {hidden}")
        self.head_width = hidden // heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Linear(hidden, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq = x.shape[0], x.shape[1]
        q, k, v = self.qkv(x).view(batch, seq, -1, 3, self.head_width).unbind(3)   # local heads
        heads = nn.functional.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.out(heads.transpose(1, 2).reshape(batch, seq, -1))


class MLP(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.up = nn.Linear(hidden, MLP_FACTOR * hidden)
        self.down = nn.Linear(MLP_FACTOR * hidden, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(nn.functional.gelu(self.up(x)))


class Layer(nn.Module):
    def __init__(self, hidden: int, heads: int | None = None):
        super().__init__()
        heads = heads_for(hidden) if heads is None else heads
        self.norm1, self.attn = nn.LayerNorm(hidden), Attention(hidden, heads)
        self.norm2, self.mlp = nn.LayerNorm(hidden), MLP(hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


def plan(sequence_parallel: bool) -> dict:
    """The parallelisation plan: module name → style (Megatron's split; with
    ``sequence_parallel`` also the norms, and the block inputs and outputs split along s)."""
    if not sequence_parallel:
        return {"attn.qkv": ColwiseParallel(), "attn.out": RowwiseParallel(),
                "mlp.up": ColwiseParallel(), "mlp.down": RowwiseParallel()}
    by_sequence = Shard(1)
    return {"norm1": SequenceParallel(), "norm2": SequenceParallel(),
            "attn.qkv": ColwiseParallel(input_layouts=by_sequence),
            "attn.out": RowwiseParallel(output_layouts=by_sequence),
            "mlp.up": ColwiseParallel(input_layouts=by_sequence),
            "mlp.down": RowwiseParallel(output_layouts=by_sequence)}


def build(hidden: int, seed: int = 0) -> Layer:
    """The whole layer, with the same weights on every rank for the same ``seed``."""
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        return Layer(hidden)


def parallel(layer: Layer, world_size: int, sequence_parallel: bool,
             device: str = "cpu") -> Layer:
    """A copy of ``layer`` split over the default group's ``world_size`` ranks."""
    mesh = init_device_mesh(device, (world_size,))
    return parallelize_module(copy.deepcopy(layer), mesh, plan(sequence_parallel))


def local_input(x: torch.Tensor, rank: int, world_size: int, sequence_parallel: bool):
    """What this rank feeds the split layer: the whole x, or its share of the sequence."""
    if not sequence_parallel:
        return x
    return x.chunk(world_size, dim=1)[rank]


class _Recorder(CommDebugMode):
    """CommDebugMode that also keeps, for every collective, its kind, module, pass and bytes;
    after the backward pass, ``phase`` names the pass ("step") the collectives then belong to."""

    def __init__(self):
        super().__init__()
        self.collectives = []
        self.phase = None

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        before = sum(self.comm_counts.values())
        out = super().__torch_dispatch__(func, types, args, kwargs)
        if sum(self.comm_counts.values()) > before:      # CommDebugMode counted a collective
            self.collectives.append({
                "kind": str(func.overloadpacket).split(".")[-1],
                "module": self.advanced_module_tracker.name,
                "pass": self.phase or ("backward" if self.advanced_module_tracker.is_bw
                                       else "forward"),
                "in_bytes": args[0].numel() * args[0].element_size(),
                "out_bytes": out.numel() * out.element_size()})
        return out


def count(layer: nn.Module, x: torch.Tensor) -> list:
    """Every collective one forward and one backward pass of ``layer`` on ``x`` issues, in
    order: ``{"kind", "module", "pass", "in_bytes", "out_bytes"}`` (``kind`` as PyTorch names
    it: all_reduce, all_gather_into_tensor, reduce_scatter_tensor)."""
    x = x.detach().requires_grad_(True)
    recorder = _Recorder()
    with recorder:
        layer(x).sum().backward()
    return recorder.collectives


def reduce_partial_gradients(layer: nn.Module) -> list:
    """All-reduce every parameter gradient that DTensor leaves ``Partial``, a sum over the ranks
    not yet taken (under sequence parallelism, the norms' weights and biases, each rank having
    seen only its share of the sequence: pytorch#115683), as Megatron-LM does before the
    optimizer step; the names of the parameters reduced, in order."""
    reduced = []
    for name, parameter in layer.named_parameters():
        grad = parameter.grad
        if isinstance(grad, DTensor) and any(p.is_partial() for p in grad.placements):
            parameter.grad = grad.redistribute(grad.device_mesh, [Replicate()] * len(grad.placements))
            reduced.append(name)
    return reduced


def count_step(layer: nn.Module, x: torch.Tensor, lr: float = 1e-3) -> list:
    """``count`` through a whole training step: the forward and backward pass, the reduction
    of the gradients left partial (``reduce_partial_gradients``) and an SGD step, the
    collectives of the last two under the pass "step"."""
    x = x.detach().requires_grad_(True)
    optimizer = torch.optim.SGD(layer.parameters(), lr=lr)
    recorder = _Recorder()
    with recorder:
        layer(x).sum().backward()
        recorder.phase = "step"
        reduce_partial_gradients(layer)
        optimizer.step()
    return recorder.collectives


def gradient_differences(split: nn.Module, whole: nn.Module) -> dict:
    """Each parameter's largest absolute difference between the gradient the split layer's
    optimizer would apply and the whole layer's: a sharded gradient gathered whole
    (``full_tensor``: a collective on every rank), a replicated one as it is, and one still
    ``Partial`` as this rank holds it, a share of the sum, which is what its step would use."""
    out = {}
    for (name, mine), (_, theirs) in zip(split.named_parameters(), whole.named_parameters()):
        grad = mine.grad
        if isinstance(grad, DTensor):
            partial = any(p.is_partial() for p in grad.placements)
            grad = grad.to_local() if partial else grad.full_tensor()
        out[name] = float((grad - theirs.grad).abs().max())
    return out


def totals(collectives: list) -> list:
    """The collectives grouped by (pass, kind, bytes in, bytes out), with their number, in
    order of first appearance: the table the book shows."""
    groups = {}
    for c in collectives:
        key = (c["pass"], c["kind"], c["in_bytes"], c["out_bytes"])
        groups[key] = groups.get(key, 0) + 1
    return [{"pass": p, "kind": k, "in_bytes": i, "out_bytes": o, "count": n}
            for (p, k, i, o), n in groups.items()]


@contextlib.contextmanager
def fake_group(world_size: int):
    """PyTorch's single-process ``fake`` process group of ``world_size`` ranks (this process
    is rank 0): collectives are issued and counted, and transfer nothing."""
    # The "fake" backend is registered only by this testing module; a public fake process group
    # is proposed in https://github.com/pytorch/pytorch/pull/191634.
    from torch.testing._internal.distributed.fake_pg import FakeStore
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world_size)
    try:
        yield
    finally:
        dist.destroy_process_group()


def counted(batch: int, seq_len: int, hidden: int, world_size: int,
            sequence_parallel: bool, device: torch.device = torch.device("cpu")) -> list:
    """``count`` for a (b, s, h) float32 input on the default group, which must have
    ``world_size`` ranks (a real one, or ``fake_group``), with the layer and its input on
    ``device`` (a GPU for NCCL ranks)."""
    layer = parallel(build(hidden).to(device), world_size, sequence_parallel, device.type)
    x = seeded_input(batch, seq_len, hidden, device)
    return count(layer, local_input(x, dist.get_rank(), world_size, sequence_parallel))


def seeded_input(batch: int, seq_len: int, hidden: int,
                 device: torch.device = torch.device("cpu")) -> torch.Tensor:
    """The layer's (b, s, h) float32 input, the same on every rank and every device: drawn on
    the CPU from one seed, then moved to ``device``."""
    x = torch.randn(batch, seq_len, hidden, generator=torch.Generator().manual_seed(1))
    return x.to(device)
