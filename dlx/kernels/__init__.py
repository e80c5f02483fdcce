"""numba kernels, one module per algorithm.

A kernel module never calls kernels of another module: numba's on-disk
cache is keyed per file and would not notice an edit to the other file.
"""
