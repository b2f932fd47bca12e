"""Ask a trapoula server whether it serves, through gRPC health checking (``grpc.health.v1``).

    python healthcheck.py [HOST:PORT] [--service NAME] [--timeout SECONDS]

The container image's ``HEALTHCHECK`` runs it with no argument: the address is then the port of
``TRAPOULA_ADDRESS`` (default ``127.0.0.1:50051``) on this host, a wildcard host (``0.0.0.0``,
``[::]``) asked as ``127.0.0.1``.  The service asked is ``trapoula.api.v1.TableService``, which
the server reports ``SERVING`` once started and ``NOT_SERVING`` while it stops (``--service ""``
asks about the server as a whole).

Exit status: 0 when the answer is ``SERVING``; 1 for any other answer, no answer within the
timeout (seconds, default 3), or no server; 2 for bad arguments.  One line on standard output
says which.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

SERVICE = "trapoula.api.v1.TableService"
"""The service whose health is asked by default (the server's ``SERVICE_NAME``)."""
DEFAULT_ADDRESS = "127.0.0.1:50051"
"""The address asked when neither an argument nor ``TRAPOULA_ADDRESS`` gives one."""
_WILDCARDS = frozenset({"", "0.0.0.0", "[::]", "::", "*"})


def probe_address(listen: str) -> str:
    """The address to ask a server listening on ``listen`` (``host:port``): a wildcard host becomes ``127.0.0.1``.

    >>> probe_address("0.0.0.0:50051")
    '127.0.0.1:50051'
    >>> probe_address("[::1]:7000")
    '[::1]:7000'

    Raises:
        ValueError: ``listen`` is not ``host:port`` with a port from 1 to 65535.
    """
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isascii() or not port.isdigit() or not 0 < int(port) <= 65535:
        raise ValueError(f"address {listen[:64]!r} is not host:port with a port from 1 to 65535")
    return f"{'127.0.0.1' if host in _WILDCARDS else host}:{int(port)}"


def check(address: str, service: str = SERVICE, timeout: float = 3.0) -> tuple[bool, str]:
    """Ask ``address`` (``host:port``, plaintext) for the health of ``service``.

    Returns ``(serving, line)``: ``serving`` is True only for a ``SERVING`` answer within
    ``timeout`` seconds; ``line`` says what was seen (the status name, or the gRPC error code).
    Never raises for a missing, slow or failing server.
    """
    request = health_pb2.HealthCheckRequest(service=service)
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(request, timeout=timeout)
        except grpc.RpcError as exc:
            code = exc.code() if isinstance(exc, grpc.Call) else None
            name = code.name if code is not None else type(exc).__name__
            return False, f"{address} {service or '(server)'}: no answer ({name})"
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    return reply.status == health_pb2.HealthCheckResponse.SERVING, f"{address} {service or '(server)'}: {status}"


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Run the check of the module docstring; return the exit status (0 serving, 1 not, 2 bad arguments)."""
    env = os.environ if env is None else env
    parser = argparse.ArgumentParser(description="Exit 0 when a trapoula server reports SERVING.")
    parser.add_argument("address", nargs="?", help="host:port (default: the port of TRAPOULA_ADDRESS on this host)")
    parser.add_argument("--service", default=SERVICE, help=f"service name to ask about (default {SERVICE})")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for the answer (default 3)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    if not args.timeout > 0:
        print(f"timeout {args.timeout!r} is not a positive number of seconds", file=sys.stderr)
        return 2
    try:
        address = probe_address(args.address or env.get("TRAPOULA_ADDRESS") or DEFAULT_ADDRESS)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    serving, line = check(address, args.service, args.timeout)
    print(line, flush=True)
    return 0 if serving else 1


if __name__ == "__main__":
    sys.exit(main())
