"""The rules cores of the four games: plain functions over flat cell arrays, compiled with numba."""
