"""Hatchling build hook: generate the gRPC/protobuf and Connect code from protos/ for wheels and editable installs."""

from __future__ import annotations

import glob
import os
import shutil
import sys
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # `make proto` runs this file in the project's venv, where hatchling is not needed
    BuildHookInterface = object  # type: ignore[assignment,misc]


def _plugin(name: str) -> str:
    """The path of protoc plugin ``name``: beside this Python (the build's or the venv's), else on PATH."""
    plugin = os.path.join(os.path.dirname(sys.executable), name)
    if not os.path.exists(plugin):
        plugin = shutil.which(name) or plugin
    return plugin


def generate(root: str) -> list[str]:
    """Run grpc_tools.protoc over protos/trapoula/api/v1/*.proto; return the generated paths.

    It writes the messages (``*_pb2.py`` and ``.pyi``), the gRPC stubs (``*_pb2_grpc.py`` and
    ``.pyi``) and the Connect service (``*_connect.py``, from protoc-gen-connect-python).
    """
    from grpc_tools import protoc  # imported lazily: a build-time dependency only

    protos = os.path.join(root, "protos")
    sources = sorted(glob.glob(os.path.join(protos, "trapoula", "api", "v1", "*.proto")))
    include = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    args = [
        "grpc_tools.protoc",
        f"--plugin=protoc-gen-mypy_grpc={_plugin('protoc-gen-mypy_grpc')}",
        f"--plugin=protoc-gen-connect-python={_plugin('protoc-gen-connect-python')}",
        f"-I{protos}",
        f"-I{include}",
        f"--python_out={protos}",
        f"--pyi_out={protos}",
        f"--grpc_python_out={protos}",
        f"--mypy_grpc_out={protos}",
        f"--connect-python_out={protos}",
        *sources,
    ]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed on " + ", ".join(sources))
    generated = glob.glob(os.path.join(protos, "trapoula", "api", "v1", "*_pb2*.py*"))
    generated += glob.glob(os.path.join(protos, "trapoula", "api", "v1", "*_connect.py"))
    return sorted(generated)


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Generates the protobuf modules before every build."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Generate code and register the generated files as artifacts."""
        generated = generate(self.root)
        build_data.setdefault("artifacts", []).extend(os.path.relpath(p, self.root) for p in generated)


if __name__ == "__main__":
    for path in generate(os.path.dirname(os.path.abspath(__file__))):
        print(path)
