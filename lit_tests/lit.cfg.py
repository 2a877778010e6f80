# lit configuration for tosa-state's pass and dialect tests.
# ruff: noqa: F821  (lit injects `config` and `lit_config`)
import os

import lit.formats

config.name = "tosa-state"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "Inputs"]
config.substitutions.append(("FileCheck", "filecheck"))
config.substitutions.append(("%inputs", os.path.join(os.path.dirname(__file__), "Inputs")))
config.environment["PATH"] = os.environ.get("PATH", "")
for name in ("HOME", "PYTHONPATH", "VIRTUAL_ENV", "TMPDIR"):
    if name in os.environ:
        config.environment[name] = os.environ[name]
