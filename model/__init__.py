"""The pure models of the book's three articles (no I/O): split, tensor_parallel, parallel_theory."""
