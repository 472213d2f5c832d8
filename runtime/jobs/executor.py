"""Map one function over the partitions of a job: in a thread pool, or on a Dask cluster.

A job (scoring a file of hands, simulating games) is a stream of partitions, each
scored by one call of a task function.  :func:`map_partitions` runs those calls (in
threads, or in processes for a task that holds the GIL, such as playing hands) and
yields their results in the order of the partitions, whatever order they finish in,
so a local run with any number of threads and a cluster run give the same output.
Only a bounded number of partitions is in flight at once, so a file of any size
streams through in constant memory.

On a cluster the task and each partition are pickled and sent to the workers: a
task is a module-level function (or a :func:`functools.partial` of one) that loads
what it needs by name on the worker, never an object holding a compiled module.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import BrokenExecutor, CancelledError, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from ..errors import MjrError, UnfinishedRunError, first_line, missing_extra

if TYPE_CHECKING:
    from ..ruleset.loaded import Ruleset

P = TypeVar("P")
R = TypeVar("R")

#: How many partitions per thread (or cluster thread) are in flight at once:
#: enough to keep every thread busy while the results of the first are written.
IN_FLIGHT_PER_THREAD = 2






def load_on_worker(name: str, backend: str, options: tuple[tuple[str, object], ...]) -> Ruleset:
    """The ruleset a task names: an installed one loaded once per process (a worker
    runs many tasks); one from a file asked of the loader each time, whose cache
    reads the file, so a file changed between two runs in one process is never
    played stale.  A failure is a plain :class:`MjrError` naming it, which any
    worker can send back."""
    from ..ruleset import loader

    try:
        if loader.is_installed(name):
            return _load_installed(name, backend, options)
        return loader.load(name, backend, **dict(options))
    except MjrError as error:
        raise MjrError(f"a worker could not load the ruleset {name}: {error}") from None


@lru_cache(maxsize=8)
def _load_installed(name: str, backend: str, options: tuple[tuple[str, object], ...]) -> Ruleset:
    from ..ruleset import loader

    return loader.load(name, backend, **dict(options))


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def map_partitions(task: Callable[[P], R], partitions: Iterable[P], *, workers: int | None = None,
                   scheduler: str | None = None, processes: bool = False) -> Generator[R, None, None]:
    """``task(partition)`` for each partition, yielded in the partitions' order.

    ``scheduler`` is the address of a Dask distributed scheduler (``tcp://host:8786``)
    to run the tasks on, one partition per task; without it they run here, in a pool
    of ``workers`` threads (default: one per core; 1 runs them in the calling thread).
    With ``processes`` the pool is of new (spawned) processes instead, for a task
    that holds the GIL: the task and its partitions are then pickled, as for a
    cluster.  An error raised by a task is raised here, and the tasks not yet
    started are dropped; a task lost with its worker (a process that died, a
    cluster worker killed) is an :class:`~mjr.errors.UnfinishedRunError`.  Closing
    the generator drops the tasks not yet started as well.
    """
    if scheduler is not None:
        return _on_dask(_dask_client(scheduler), task, partitions)
    count = cores() if workers is None else workers
    if count < 1:
        raise MjrError(f"workers must be 1 or more, not {count}")
    if count == 1:
        return (task(partition) for partition in partitions)
    return _in_pool(_processes if processes else _threads, task, partitions, count)


def _in_order(submit: Callable[[P], Any], result: Callable[[Any], R], partitions: Iterable[P],
              window: int) -> Generator[R, None, None]:
    """Keep ``window`` submitted partitions in flight; yield their results in order."""
    pending: deque[Any] = deque()
    for partition in partitions:
        pending.append(submit(partition))
        if len(pending) >= window:
            yield result(pending.popleft())
    while pending:
        yield result(pending.popleft())


def _threads(workers: int) -> Executor:
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mjr-partition")


def _processes(workers: int) -> Executor:
    """Spawned, not forked: a fork would copy this process's threads' locks mid-use."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


def _in_pool(make_pool: Callable[[int], Executor], task: Callable[[P], R], partitions: Iterable[P],
             workers: int) -> Generator[R, None, None]:
    """Run the tasks in a pool of ``workers`` (threads or processes), shut down at the end."""
    pool = make_pool(workers)
    try:
        yield from _in_order(lambda p: pool.submit(task, p), _pool_result, partitions,
                             workers * IN_FLIGHT_PER_THREAD)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _pool_result(future: Future[R]) -> R:
    """A task's result; a worker process that died is an error to report, not a traceback."""
    try:
        return future.result()
    except (BrokenExecutor, CancelledError) as error:
        raise UnfinishedRunError(f"a worker process stopped before its task was done: {error}") from None


def _dask_client(scheduler: str) -> Any:
    try:
        import distributed
    except ImportError:
        raise missing_extra("--scheduler needs Dask distributed, which is not installed", "dask") from None
    _check_address(scheduler)
    client_class: Any = distributed.Client  # untyped
    try:
        return client_class(scheduler, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise MjrError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None


def _check_address(scheduler: str) -> None:
    """Refuse an address with no port before a client is made: a client that fails on
    one lingers until the process exits, and then times out with a traceback."""
    from distributed.comm.addressing import get_address_host_port, parse_address

    try:
        if parse_address(scheduler)[0] != "inproc":  # inproc: a cluster in this very process
            get_address_host_port(scheduler)
    except ValueError as error:
        raise MjrError(f"not a Dask scheduler address: {scheduler!r} ({error}); "
                       "expected one such as tcp://HOST:8786") from None


#: Times a task cancelled by the cluster (its worker lost with the partition it
#: held) is sent again, its partition scattered anew, before the run stops.
RESENDS = 2


def _on_dask(client: Any, task: Callable[[P], R], partitions: Iterable[P]) -> Generator[R, None, None]:
    try:
        threads = max(1, sum(client.nthreads().values()))
        yield from _in_order(lambda partition: _ClusterTask(client, task, partition), _ClusterTask.result,
                             partitions, threads * IN_FLIGHT_PER_THREAD)
    finally:
        client.close()


class _ClusterTask:
    """One partition's task on a cluster, sent again when the cluster cancels it.

    The partition is scattered first, so a large one travels as data, not inside the
    task graph; but scattered data lives on one worker, and when that worker is lost
    the task is cancelled rather than run elsewhere.  Sending it again (up to
    :data:`RESENDS` times) scatters the partition anew, to a worker still there.
    """

    def __init__(self, client: Any, task: Callable[[Any], Any], partition: Any) -> None:
        self.client, self.task, self.partition, self.sent = client, task, partition, 0
        self.future = self._send()

    def _send(self) -> Any:
        self.sent += 1
        return self.client.submit(self.task, self.client.scatter(self.partition, hash=False), pure=False)

    def result(self) -> Any:
        """The task's result; a cluster that lost the task (after its resends) or its
        connection is an error to report, not a traceback (an error the task raised
        is raised as it is)."""
        from distributed import KilledWorker

        while True:
            try:
                return self.future.result()
            except CancelledError as error:  # distributed's FutureCancelledError, with the scheduler's reason
                if self.sent <= RESENDS:
                    self.future = self._send()
                    continue
                why = getattr(error, "reason", None) or first_line(error)
                raise UnfinishedRunError(f"the Dask cluster cancelled a task {self.sent} times before it was done "
                                         f"(reason: {why}), as when workers are lost with the partition they hold"
                                         ) from None
            except (KilledWorker, OSError, TimeoutError) as error:  # KilledWorker: after the cluster's own retries
                raise UnfinishedRunError(f"the Dask cluster failed to run a task: {type(error).__name__}: "
                                         f"{first_line(error)}") from None


#: Seconds a run goes before its progress bar appears: a short run stays quiet.
PROGRESS_DELAY = 0.5


class Progress:
    """A one-line progress bar on a terminal, redrawn at most ten times a second.

    It draws nothing on a stream that is not a terminal, nor before ``delay``
    seconds (:data:`PROGRESS_DELAY`) have passed, and :meth:`close` erases it.
    """

    def __init__(self, total: int | None, what: str = "hands", stream: TextIO | None = None,
                 delay: float | None = None) -> None:
        self.total, self.what, self.done = total, what, 0
        self.stream = sys.stderr if stream is None else stream
        self.enabled = self.stream.isatty()
        self.start = time.monotonic()
        self.delay = PROGRESS_DELAY if delay is None else delay
        self._drawn_at = 0.0
        self._shown = False

    def advance(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if not self.enabled or now - self.start < self.delay or now - self._drawn_at < 0.1:
            return
        self._drawn_at = now
        self.stream.write("\r" + self.line(now - self.start) + "\x1b[K")
        self.stream.flush()
        self._shown = True

    def line(self, elapsed: float) -> str:
        """The bar as text: ``[#####.....]  52%  52000/100000 hands  11.2k/s``."""
        rate = f"{self.done / elapsed / 1000:.1f}k/s" if elapsed > 0 else ""
        if not self.total:
            return f"{self.done} {self.what}  {rate}"
        share = min(self.done / self.total, 1.0)
        filled = int(share * 30)
        return f"[{'#' * filled}{'.' * (30 - filled)}] {share:4.0%}  {self.done}/{self.total} {self.what}  {rate}"

    def close(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
