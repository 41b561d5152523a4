# The code of section theory-08-ten-x, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory

# %% glue [hide-cell]
tx, f = th["ten_x"], th["facts"]["ten_x_factors"]
page.glue("f_gpu", f["gpu_vs_cpu"], 1)
page.glue("f_precision", f["mixed_precision"], 1)
page.glue("f_data_parallel", f["data_parallel"], 1)
page.glue("f_accumulation", f["gradient_accumulation"], 1)
page.glue("f_checkpointing", f["activation_checkpointing"], 1)
page.glue("f_nvlink", f["nvlink"], 1)
page.glue("product", tx["product"], 1)
page.glue("product_without_gpu", tx["product_without_gpu_vs_cpu"], 1)
page.glue("days_before", tx["days_before"], 0)
page.glue("days_after", tx["days_after"], 0)
page.glue("achieved", tx["achieved"], 1)
page.glue("checkpointing_speed", tx["checkpointing_step_speed"], 2)
page.glue("forward_share_backward_twice_pct", 100 * tx["forward_share_backward_twice"], 1)
page.glue("checkpointing_speed_backward_twice", tx["checkpointing_step_speed_backward_twice"], 2)
mem, p = th["memory"], r["parameters"]
page.glue("devices", p["th_devices"])
page.glue("parameters_b", th["facts"]["parameters_b"])
page.glue("a100_memory_gb", th["facts"]["a100_memory_gb"])
page.glue("weights_fp16_gb", mem["weights_fp16_gb"])
page.glue("weights_and_gradients_gb", mem["weights_and_gradients_gb"], 0)
page.glue("adam_bytes", mem["adam_bytes_per_parameter"])
page.glue("adam_states_gb", mem["adam_states_gb"], 0)
page.glue("devices_memory_gb", mem["devices_memory_gb"], 0)
