"""Where parallel work runs: a local process pool, or a Ray cluster.

    for item, result in map_unordered(work, items, executor="local", workers=2,
                                      initializer=start, initargs=(...)):
        ...

`work(item)` runs in a worker; each worker first calls `initializer(*initargs)`
once (an oracle to start, a cache to fill), so what it keeps between items
is the same whichever executor runs it.  Results come back as each item
finishes, in no particular order, paired with their item.  `work` and
`initializer` must be module-level functions (they are pickled by name).

An item whose worker dies (a crash: a signal, the kernel's OOM killer),
runs longer than `time_limit` seconds or holds more than `memory_limit`
bytes comes back with a `Failure` in place of its result; its worker is
killed and replaced (the initializer runs again) and the other items go
on.  An exception `work` raises is raised to the caller, as a pool does.

* `local` (the default): `workers` `spawn` processes, embedded, no service
  to start, fed one item at a time.  Each is the leader of its own process
  group, so that killing it takes what it started (Triton's interpreter,
  qemu) too; its memory is the resident memory of the whole group, read
  from /proc twice a second.  Workers ignore SIGINT, so Ctrl-C reaches the
  caller alone, which leaves the loop with `KeyboardInterrupt` and kills
  the workers.
* `ray`: `workers` Ray actors of one CPU each, fed one item at a time (an
  actor pool), so a cluster runs as many items at once as there are actors.
  Connects to `address` (`ray start --head` prints it; `auto` finds a
  cluster on this machine), or starts a local Ray runtime of `workers` CPUs
  when there is none; a runtime this module started is shut down at the end,
  one already initialized (a test's, an application's) is left running.
  Every node needs tnpu installed in the same version (docs/dse.md).  An
  actor that dies or runs past the time limit is a `Failure` and is
  replaced; memory is left to Ray's own monitor, whose kill is a crash.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, TypeVar

Item = TypeVar("Item")

EXECUTORS = ("local", "ray")

POLL_S = 0.5
"""How often the caller looks at its workers' run times and memory."""


class ExecutorError(Exception):
    """An executor that cannot be used as asked (Ray not installed, no cluster at the address)."""


@dataclass(frozen=True)
class Failure:
    """What became of an item whose worker was lost: `crash`, `timeout` or `memory`."""

    kind: str
    message: str
    """One line: how the worker died, or the limit it passed."""


def map_unordered(
    work: Callable[[Item], Any],
    items: Iterable[Item],
    *,
    executor: str = "local",
    workers: int = 1,
    address: str | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
    time_limit: float | None = None,
    memory_limit: int | None = None,
) -> Iterator[tuple[Item, Any]]:
    """`(item, work(item))` for every item, as each finishes, or `(item, Failure)` for
    one whose worker was lost (see the module docstring)."""
    if workers < 1:
        raise ExecutorError("the number of workers must be at least 1")
    if executor == "local":
        if address is not None:
            raise ExecutorError("--address needs --executor ray")
        return _local(work, list(items), workers, initializer, initargs, time_limit, memory_limit)
    if executor == "ray":
        return _ray(work, list(items), workers, address, initializer, initargs, time_limit)
    raise ExecutorError(f"unknown executor '{executor}': give {' or '.join(EXECUTORS)}")


def _serve(connection: Connection, work: Callable, initializer: Callable | None, initargs: tuple) -> None:
    """A local worker: its own process group, SIGINT ignored, the initializer, `ready`, then items."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)
    connection.send(("ready", None))
    while True:
        try:
            item = connection.recv()
        except EOFError:  # the caller is done
            return
        try:
            answer = ("result", work(item))
        except Exception as error:  # raised again in the caller
            answer = ("exception", error)
        connection.send(answer)


class _LocalWorker:
    """A worker process, the pipe to it, and the item it runs (None: starting or idle) since when."""

    def __init__(self, context: Any, work: Callable, initializer: Callable | None, initargs: tuple):
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, work, initializer, initargs), daemon=True)
        self.process.start()
        theirs.close()
        self.ready = False
        self.item: Any = None
        self.since = 0.0

    def give(self, item: Any) -> None:
        self.item, self.since = item, time.monotonic()
        self.connection.send(item)

    def kill(self) -> None:
        """Kill the worker and everything in its process group."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):  # gone, or not yet its group's leader
            self.process.kill()
        self.process.join()
        self.connection.close()


def _local(work, items, workers, initializer, initargs, time_limit, memory_limit) -> Iterator[tuple[Any, Any]]:
    context = multiprocessing.get_context("spawn")
    queue = deque(items)
    pool = [_LocalWorker(context, work, initializer, initargs) for _ in range(min(workers, max(1, len(items))))]
    try:
        while queue or any(worker.item is not None for worker in pool):
            for worker in pool:
                if worker.ready and worker.item is None and queue:
                    worker.give(queue.popleft())
            waiting = [w for w in pool if not w.ready or w.item is not None]
            ready = wait([w.connection for w in waiting] + [w.process.sentinel for w in waiting], timeout=POLL_S)
            for index, worker in enumerate(pool):
                if not worker.ready:
                    if worker.connection in ready or worker.process.sentinel in ready:
                        _started(worker)
                    continue
                if worker.item is None:
                    continue
                outcome = _outcome(worker, ready, time_limit, memory_limit)
                if outcome is None:
                    continue
                item, worker.item = worker.item, None
                if isinstance(outcome, Failure):
                    worker.kill()
                    pool[index] = _LocalWorker(context, work, initializer, initargs)
                elif outcome[0] == "exception":
                    raise outcome[1]
                else:
                    outcome = outcome[1]
                yield item, outcome
    finally:
        for worker in pool:
            worker.kill()


def _started(worker: _LocalWorker) -> None:
    """Mark a starting worker ready; one that died starting is an `ExecutorError`."""
    try:
        worker.connection.recv()
        worker.ready = True
    except EOFError:
        worker.process.join()
        raise ExecutorError(f"a worker died while starting ({_death(worker.process.exitcode)})") from None


def _outcome(worker: _LocalWorker, ready: list, time_limit: float | None, memory_limit: int | None) -> Any:
    """The worker's answer if it has one, a `Failure` if it is lost, else None (still running)."""
    if worker.connection in ready:
        try:
            return worker.connection.recv()
        except EOFError:
            pass  # it died after starting to answer
    if worker.connection in ready or worker.process.sentinel in ready:
        worker.process.join()
        return Failure("crash", f"the worker died ({_death(worker.process.exitcode)})")
    if time_limit is not None and time.monotonic() - worker.since > time_limit:
        return Failure("timeout", f"ran longer than the time limit of {time_limit:g} s")
    if memory_limit is not None and (used := group_memory(worker.process.pid)) > memory_limit:
        return Failure(
            "memory", f"held {used / 2**20:.0f} MiB, more than the memory limit of {memory_limit / 2**20:.0f} MiB"
        )
    return None


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        return f"killed by {signal.Signals(-exitcode).name}"
    return f"exit code {exitcode}"


def group_memory(group: int) -> int:
    """Bytes of resident memory of every process in process group `group` (Linux /proc)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        # After the command: state, ppid, pgrp, ... the 22nd is rss (pages).
        if int(fields[2]) == group:
            total += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return total


class _Worker:
    """A Ray actor: the initializer once, then `work` on each item it is given."""

    def __init__(self, work: Callable, initializer: Callable | None, initargs: tuple):
        self.work = work
        if initializer is not None:
            initializer(*initargs)

    def run(self, item: Any) -> Any:
        return self.work(item)


def _ray(work, items, workers, address, initializer, initargs, time_limit) -> Iterator[tuple[Any, Any]]:
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
        actor = ray.remote(num_cpus=1, max_restarts=0)(_Worker)

        def start() -> Any:
            return actor.remote(work, initializer, initargs)

        pending: dict[Any, tuple[Any, Any, float]] = {}
        queue = deque(items)
        idle = [start() for _ in range(min(workers, max(1, len(items))))]
        while queue or pending:
            while idle and queue:
                worker, item = idle.pop(), queue.popleft()
                pending[worker.run.remote(item)] = (item, worker, time.monotonic())
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=POLL_S)
            now = time.monotonic()
            for reference in list(pending):
                item, worker, since = pending[reference]
                if reference in ready:
                    try:
                        outcome = ray.get(reference)
                    except ray.exceptions.ActorDiedError as error:  # pyright: ignore[reportAttributeAccessIssue]
                        outcome = Failure("crash", f"the worker died ({' '.join(str(error).split())[:200]})")
                elif time_limit is not None and now - since > time_limit:
                    outcome = Failure("timeout", f"ran longer than the time limit of {time_limit:g} s")
                else:
                    continue
                del pending[reference]
                if isinstance(outcome, Failure):
                    ray.kill(worker)
                    worker = start()
                idle.append(worker)
                yield item, outcome
    finally:
        if started:
            ray.shutdown()
