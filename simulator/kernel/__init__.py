"""The numba kernel: whole matches of Président, every option, millions of rounds per second.

numba's on-disk cache is keyed by each function's own file only: after an edit to a
module a cached caller still holds the old inlined code of its callees. So before any
function is compiled or loaded, every folder numba may cache the package's functions in
is checked against a hash of the sources compiled into them (:mod:`simulator.kernel.freshness`,
run on the import of :mod:`simulator.kernel.config`).
"""
