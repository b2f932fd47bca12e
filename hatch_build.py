"""Hatchling build hook: generate the gRPC/protobuf code from protos/ for wheels and editable installs."""

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


def generate(root: str) -> list[str]:
    """Run grpc_tools.protoc over protos/trapoula/api/v1/*.proto; return the generated paths."""
    from grpc_tools import protoc  # imported lazily: a build-time dependency only

    protos = os.path.join(root, "protos")
    sources = sorted(glob.glob(os.path.join(protos, "trapoula", "api", "v1", "*.proto")))
    include = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    plugin = os.path.join(os.path.dirname(sys.executable), "protoc-gen-mypy_grpc")
    if not os.path.exists(plugin):
        plugin = shutil.which("protoc-gen-mypy_grpc") or plugin
    args = [
        "grpc_tools.protoc",
        f"--plugin=protoc-gen-mypy_grpc={plugin}",
        f"-I{protos}",
        f"-I{include}",
        f"--python_out={protos}",
        f"--pyi_out={protos}",
        f"--grpc_python_out={protos}",
        f"--mypy_grpc_out={protos}",
        *sources,
    ]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed on " + ", ".join(sources))
    return sorted(glob.glob(os.path.join(protos, "trapoula", "api", "v1", "*_pb2*.py*")))


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Generates the protobuf modules before every build."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Generate code and register the generated files as artifacts."""
        generated = generate(self.root)
        build_data.setdefault("artifacts", []).extend(os.path.relpath(p, self.root) for p in generated)


if __name__ == "__main__":
    for path in generate(os.path.dirname(os.path.abspath(__file__))):
        print(path)
