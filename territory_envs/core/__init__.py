"""The shared core: board geometry, connectivity kernels, game state, env, records, rendering."""
