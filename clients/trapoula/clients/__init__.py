"""trapoula's thin client: gRPC calls, offline replay and audit of records, the ``trapoula`` command.

The client depends on the generated stubs, grpcio and the pure domain package (to replay and
verify records offline); never on the server.
"""

from trapoula.clients.audit import AuditReport, Problem, audit_file, audit_text
from trapoula.clients.errors import (
    AlreadyExists,
    CommandRejected,
    Conflict,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    StaleView,
    TrapoulaError,
    Unavailable,
)
from trapoula.clients.replay import Replay
from trapoula.clients.table import TableClient, Update, Watch, my_move

__all__ = [
    "AlreadyExists",
    "AuditReport",
    "CommandRejected",
    "Conflict",
    "InvalidArgument",
    "NotFound",
    "PermissionDenied",
    "Problem",
    "Replay",
    "ResourceExhausted",
    "StaleView",
    "TableClient",
    "TrapoulaError",
    "Unavailable",
    "Update",
    "Watch",
    "audit_file",
    "audit_text",
    "my_move",
]
