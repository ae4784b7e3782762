"""Where parallel work runs: a local process pool, or a Ray cluster.

    for item, result in map_unordered(work, items, executor="local", workers=2,
                                      initializer=start, initargs=(...)):
        ...

`work(item)` runs in a worker; each worker first calls `initializer(*initargs)`
once (an oracle to start, a cache to fill), so what it keeps between items
is the same whichever executor runs it.  Results come back as each item
finishes, in no particular order, paired with their item.  `work` and
`initializer` must be module-level functions (they are pickled by name).

* `local` (the default): a `spawn` process pool of `workers` processes,
  embedded, no service to start.  Workers ignore SIGINT, so Ctrl-C reaches
  the caller alone, which leaves the loop with `KeyboardInterrupt` and
  terminates the pool.
* `ray`: `workers` Ray actors of one CPU each, fed one item at a time (an
  actor pool), so a cluster runs as many items at once as there are actors.
  Connects to `address` (`ray start --head` prints it; `auto` finds a
  cluster on this machine), or starts a local Ray runtime of `workers` CPUs
  when there is none; a runtime this module started is shut down at the end,
  one already initialized (a test's, an application's) is left running.
  Every node needs tnpu installed in the same version (docs/dse.md).
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

Item = TypeVar("Item")

EXECUTORS = ("local", "ray")


class ExecutorError(Exception):
    """An executor that cannot be used as asked (Ray not installed, no cluster at the address)."""


def map_unordered(
    work: Callable[[Item], Any],
    items: Iterable[Item],
    *,
    executor: str = "local",
    workers: int = 1,
    address: str | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
) -> Iterator[tuple[Item, Any]]:
    """`(item, work(item))` for every item, as each finishes (see the module docstring)."""
    if workers < 1:
        raise ExecutorError("the number of workers must be at least 1")
    if executor == "local":
        if address is not None:
            raise ExecutorError("--address needs --executor ray")
        return _local(work, list(items), workers, initializer, initargs)
    if executor == "ray":
        return _ray(work, list(items), workers, address, initializer, initargs)
    raise ExecutorError(f"unknown executor '{executor}': give {' or '.join(EXECUTORS)}")


def _start_local_worker(initializer: Callable[..., None] | None, initargs: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


def _paired(work: Callable[[Item], Any], item: Item) -> tuple[Item, Any]:
    return item, work(item)


def _local(work, items, workers, initializer, initargs) -> Iterator[tuple[Any, Any]]:
    from functools import partial

    context = multiprocessing.get_context("spawn")
    with context.Pool(
        min(workers, max(1, len(items))), initializer=_start_local_worker,
        initargs=(initializer, initargs),
    ) as pool:
        yield from pool.imap_unordered(partial(_paired, work), items)


class _Worker:
    """A Ray actor: the initializer once, then `work` on each item it is given."""

    def __init__(self, work: Callable, initializer: Callable | None, initargs: tuple):
        self.work = work
        if initializer is not None:
            initializer(*initargs)

    def run(self, item: Any) -> Any:
        return self.work(item)


def _ray(work, items, workers, address, initializer, initargs) -> Iterator[tuple[Any, Any]]:
    try:
        import ray
    except ImportError:
        raise ExecutorError(
            "--executor ray needs Ray: pip install 'ray>=2.40' (scripts/bootstrap installs it)"
        ) from None
    started = not ray.is_initialized()
    if started:
        try:
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ExecutorError(f"cannot start or reach Ray at {address or 'a local runtime'}: "
                                f"{' '.join(str(error).split())}") from None
    try:
        actor = ray.remote(num_cpus=1)(_Worker)
        pool = [actor.remote(work, initializer, initargs) for _ in range(min(workers, max(1, len(items))))]
        pending: dict[Any, tuple[Any, Any]] = {}
        queue = iter(items)
        idle = list(pool)

        def feed() -> None:
            while idle:
                item = next(queue, _DONE)
                if item is _DONE:
                    return
                worker = idle.pop()
                pending[worker.run.remote(item)] = (item, worker)

        feed()
        while pending:
            (ready,), _ = ray.wait(list(pending), num_returns=1)
            item, worker = pending.pop(ready)
            idle.append(worker)
            feed()
            yield item, ray.get(ready)
    finally:
        if started:
            ray.shutdown()


_DONE = object()
