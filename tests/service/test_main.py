"""``python -m trapoula.service``: serves, answers health checks, stops gracefully on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc


@pytest.mark.process
@pytest.mark.timeout(60)
def test_the_module_serves_until_sigterm(tmp_path: Any) -> None:
    env = {**os.environ, "TRAPOULA_SECRET": "11" * 32, "TRAPOULA_ADDRESS": "127.0.0.1:0"}
    url = f"sqlite:///{tmp_path / 'served.sqlite3'}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "trapoula.service", "--database-url", url],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("trapoula serving on 127.0.0.1:"), line
        address = line.split()[-1]
        with grpc.insecure_channel(address) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
            created = table_pb2_grpc.TableServiceStub(channel).CreateTable(
                pb.CreateTableRequest(game="agonia", seats=2), timeout=10
            )
            assert created.table_id and created.owner_token
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        assert (tmp_path / "served.sqlite3").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
