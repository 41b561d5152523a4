"""Article 1's measurement protocol, executed on torch.distributed (issue: "the protocol,
executed").

- ``measure.worker``: one rank under torchrun; times S, C, the halves, T₁, T₂, an all-reduce
  size sweep and a sweep over C, and writes the record (needs torch).
- ``measure.analysis``: statistics, the α–β fit, the crossing, the record's schema and the
  model's prediction through ``experiment.run()`` (no torch; the notebooks use it).
- ``python -m measure``: the launcher (``make measure``).
"""
