"""The results store of a study: one SQLite file, keyed by content hashes, resumable.

SQLite (the standard library's `sqlite3`, no dependency): a study writes a
record at a time as results stream in, resumes by asking which keys are
there, and several processes may write one file (WAL journal, a busy
timeout); Parquet files are written whole and would need a file per batch
and a compaction to do the same.  Tables:

* `configs(config_hash, name, yaml)`: each point, its canonical YAML
  (`space.canonical_yaml`; the hash is its SHA-256);
* `kernels(workload, position, kernel, ttir_hash, launch_hash)`: which
  launches each workload runs, in order;
* `timings(ttir_hash, launch_hash, config_hash, status, ...)`: one timed
  launch on one configuration, `ok` with its figures (cycles, µs, both
  rooflines, bytes, FLOPs, utilization per unit, the report's JSON) or
  `refused`/`error` with the one-line reason;
* the view `records`: one row per (workload, kernel, configuration).

A timing is keyed by what determines it, so a study skips every key it
finds, whichever study or workload put it there; the store holds no
times of day or host names, so two executors produce identical stores.
Compare two studies by attaching one to the other (docs/dse.md).
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from tnpu.dse.space import Point, canonical_yaml
from tnpu.dse.workload import Workload

SCHEMA_VERSION = 1

UNITS = ("dma", "vector", "matrix", "dram")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS configs (
    config_hash TEXT PRIMARY KEY, name TEXT NOT NULL, yaml TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kernels (
    workload TEXT NOT NULL, position INTEGER NOT NULL, kernel TEXT NOT NULL,
    ttir_hash TEXT NOT NULL, launch_hash TEXT NOT NULL, PRIMARY KEY (workload, kernel));
CREATE TABLE IF NOT EXISTS timings (
    ttir_hash TEXT NOT NULL, launch_hash TEXT NOT NULL, config_hash TEXT NOT NULL,
    status TEXT NOT NULL, message TEXT,
    cycles REAL, time_us REAL, roofline_cycles REAL, roofline_bound TEXT,
    compulsory_cycles REAL, compulsory_bound TEXT, compulsory_bytes INTEGER,
    bytes_read INTEGER, bytes_written INTEGER, dram_bytes INTEGER, flops INTEGER,
    {", ".join(f"{unit}_utilization REAL" for unit in UNITS)},
    report TEXT,
    PRIMARY KEY (ttir_hash, launch_hash, config_hash));
CREATE VIEW IF NOT EXISTS records AS
    SELECT k.workload, k.position, k.kernel, c.name AS config, t.*
    FROM kernels k JOIN timings t USING (ttir_hash, launch_hash) JOIN configs c USING (config_hash);
"""

_FIGURES = (
    "cycles", "time_us", "roofline_cycles", "roofline_bound", "compulsory_cycles",
    "compulsory_bound", "compulsory_bytes", "bytes_read", "bytes_written", "dram_bytes", "flops",
)

WORKLOAD_COLUMNS = (
    "workload", "config", "kernels", "refused", "cycles", "time_us", "roofline_ratio",
    "compulsory_ratio", *(f"{unit}_utilization" for unit in UNITS), "config_hash",
)
"""The columns of `workload_table`: a workload's figures on one configuration."""

_WORKLOAD_QUERY = f"""
SELECT workload, config, COUNT(*), SUM(status != 'ok'), SUM(cycles), SUM(time_us),
       SUM(cycles) / SUM(roofline_cycles), SUM(cycles) / SUM(compulsory_cycles),
       {", ".join(f"SUM({unit}_utilization * cycles) / SUM(cycles)" for unit in UNITS)},
       config_hash
FROM records GROUP BY workload, config_hash ORDER BY workload, SUM(time_us), config
"""

KERNEL_COLUMNS = (
    "workload", "position", "kernel", "config", "status", "message", *_FIGURES,
    *(f"{unit}_utilization" for unit in UNITS), "ttir_hash", "launch_hash", "config_hash",
)
"""The columns of `kernel_table`: one row per (workload, kernel, configuration)."""


class StoreError(ValueError):
    """A file that is not a study's store; the message is one line."""


class Store:
    """An open store.  Writes commit at once: what was written survives an interrupt."""

    def __init__(self, path: Path, *, create: bool = True):
        if not create and not path.is_file():
            raise StoreError(f"{path}: no such store")
        self.path = path
        try:
            self.connection = sqlite3.connect(path, timeout=60, isolation_level=None)
            version = self.connection.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in self.connection.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{path}: not a tnpu dse store ({error})") from None
        if tables and version != SCHEMA_VERSION:
            raise StoreError(f"{path}: not a tnpu dse store (schema version {version}, expected {SCHEMA_VERSION})")
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.executescript(_SCHEMA)
        self.connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add_study(self, workloads: Sequence[Workload], points: Sequence[Point]) -> None:
        """Record the study's configurations and workloads (what is there already stays)."""
        with self.connection:
            self.connection.execute("BEGIN")
            self.connection.executemany(
                "INSERT OR IGNORE INTO configs VALUES (?, ?, ?)",
                [(p.config_hash, p.npu.name, canonical_yaml(p.npu)) for p in points],
            )
            self.connection.executemany(
                "INSERT OR REPLACE INTO kernels VALUES (?, ?, ?, ?, ?)",
                [
                    (w.name, position, k.name, k.ttir_hash, k.launch_hash)
                    for w in workloads
                    for position, k in enumerate(w.kernels)
                ],
            )

    def done(self) -> set[tuple[str, str, str]]:
        """The (ttir_hash, launch_hash, config_hash) keys already timed."""
        return set(self.connection.execute("SELECT ttir_hash, launch_hash, config_hash FROM timings"))

    def add_timings(self, records: Iterable[dict[str, Any]]) -> None:
        """Store `study.time_task`'s records, in one transaction."""
        rows = []
        for record in records:
            report = record.get("report") or {}
            utilization = report.get("utilization", {})
            rows.append((
                record["ttir_hash"], record["launch_hash"], record["config_hash"],
                record["status"], record.get("message"),
                *(report.get(key) for key in _FIGURES),
                *(utilization.get(unit) for unit in UNITS),
                json.dumps(report, sort_keys=True) if report else None,
            ))
        with self.connection:
            self.connection.execute("BEGIN")
            self.connection.executemany(
                f"INSERT OR REPLACE INTO timings VALUES ({', '.join('?' * (5 + len(_FIGURES) + len(UNITS) + 1))})",
                rows,
            )

    def workload_table(self) -> list[tuple]:
        """Each workload on each configuration, fastest first (`WORKLOAD_COLUMNS`)."""
        return self.connection.execute(_WORKLOAD_QUERY).fetchall()

    def kernel_table(self) -> list[tuple]:
        """Every (workload, kernel, configuration) (`KERNEL_COLUMNS`)."""
        return self.connection.execute(
            f"SELECT {', '.join(KERNEL_COLUMNS)} FROM records ORDER BY workload, position, config"
        ).fetchall()

    def reports(self, config_hash: str) -> list[tuple[str, str, dict]]:
        """(workload, kernel, report JSON) of every launch timed on a configuration."""
        return [
            (workload, kernel, json.loads(report))
            for workload, kernel, report in self.connection.execute(
                "SELECT workload, kernel, report FROM records WHERE config_hash = ? AND status = 'ok' "
                "ORDER BY workload, position", (config_hash,),
            )
        ]

    def config_yaml(self, config_hash: str) -> str:
        return self.connection.execute(
            "SELECT yaml FROM configs WHERE config_hash = ?", (config_hash,)
        ).fetchone()[0]


def write_csv(stream: TextIO, columns: Sequence[str], rows: Iterable[Sequence]) -> None:
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
