"""The Dask recipe of docs/dask.md on a local cluster of 2 worker processes, over Parquet.

Optional test dependencies: ``dask[distributed]`` and ``pyarrow``; the test is skipped, with
the reason, only where they are not installed.
"""

from __future__ import annotations

import random

import pytest

import coinsrow

dask_bag = pytest.importorskip("dask.bag", reason="dask is an optional test dependency: "
                               "pip install 'dask[distributed]'")
distributed = pytest.importorskip("distributed", reason="distributed is an optional test "
                                  "dependency: pip install 'dask[distributed]'")
pa = pytest.importorskip("pyarrow", reason="pyarrow is an optional test dependency")
pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is an optional test dependency")


# -- the recipe, as in docs/dask.md -------------------------------------------------------------


def solve_pieces(pieces):
    """One Dask partition: the values of the games of some Parquet row groups, in order."""
    import pyarrow.parquet as pq

    import coinsrow

    values = []
    for path, row_group in pieces:
        games = pq.ParquetFile(path).read_row_group(row_group, columns=["coins"])
        values += coinsrow.values_many(games.column("coins"), threads=1)
    return values


def values_of_parquet(paths, npartitions):
    import dask.bag as db
    import pyarrow.parquet as pq

    pieces = [(path, i) for path in paths for i in range(pq.ParquetFile(path).num_row_groups)]
    return db.from_sequence(pieces, npartitions=npartitions).map_partitions(solve_pieces)


# -- the test -----------------------------------------------------------------------------------


def test_dask_recipe_on_two_worker_processes(tmp_path):
    rng = random.Random(2024)
    games = []
    for i in range(4000):
        game = [rng.randint(-10**6, 10**6) for _ in range(rng.randint(0, 60))]
        if i % 500 == 7:
            game = [2**62 + 3, 2**62 + 2, 2**62 + 1, 2**62]  # int64 overflow: exact fallback
        games.append(game)
    paths = []
    for part in range(2):
        path = tmp_path / f"games-{part}.parquet"
        table = pa.table({"coins": pa.array(games[part * 2000:(part + 1) * 2000],
                                            type=pa.list_(pa.int64()))})
        pq.write_table(table, path, row_group_size=300)
        paths.append(str(path))
    assert pq.ParquetFile(paths[0]).num_row_groups > 1

    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        bag = values_of_parquet(paths, npartitions=4)
        values = bag.compute()
        # The tasks ran in the workers' processes, not here.
        worker_pids = set(client.run(lambda: __import__("os").getpid()).values())
        assert len(worker_pids) == 2 and __import__("os").getpid() not in worker_pids

    expected = [coinsrow.value(game) for game in games]
    assert values == expected
    assert all(type(v) is int for v in values)
    assert values[7] == 2  # (2**62 + 3) - (2**62 + 2) + (2**62 + 1) - 2**62, past int64 midway
