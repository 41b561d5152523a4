# The code of section tp-03-primitives, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
p = r["parameters"]
page.glue("b", p["tp_batch"])
page.glue("s", p["tp_seq_len"])
page.glue("h", p["tp_hidden"])
page.glue("d", p["tp_bytes_per_value"])
page.glue("message_bytes", tp["message_bytes"], 0)
page.glue("message_mb", tp["message_mb"], 1)
page.glue("ring_traffic_ratio", tp["scaling_checks"]["ring_cluster_traffic_ratio_32_over_2"], 0)
from model.tensor_parallel import RING_EXAMPLE_DEVICES as ring_t   # the ring the diagram draws
from model.units import ring_factor
page.glue("ring_drawn_t", ring_t)
page.glue("ring_drawn_sends", 2 * (ring_t - 1))
page.glue("ring_drawn_share", ring_factor(ring_t), 1)

# %% figure-ring [remove-input]
page.figure(figures.figure_ring_allreduce)
