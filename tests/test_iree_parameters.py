"""Device `iree` keeps a model's large constants out of the compiled module, as IREE
parameters handed from memory (`tosa-constants-to-parameters`, `devices/iree_parameters`):
the `.vmfb` holds only the program, its results are those of the module with the constants
inline, it is shared (one cache entry) by models that differ only in their weights, the
requests share the weights; `tosa-state compile` writes them into the `.vmfb` (one
self-contained file), or with `--parameters` to a parameter archive that IREE's own runner
loads."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from functools import partialmethod
from pathlib import Path

import numpy as np
import openvino as ov
import pytest
from openvino import opset13 as ops

import tosa_state as ts
from tosa_state.api import _compile_model  # what tosa-state compile calls
from tosa_state.devices import iree_compile
from tosa_state.devices.iree import IreeExecutable
from tosa_state.devices.iree_compile import DECODER_FLAGS, DEFAULT_FLAGS, TARGET_FLAGS
from tosa_state.devices.iree_parameters import ALIGNMENT, aligned
from tosa_state.resources import address

pytestmark = pytest.mark.peers

WIDTH = 256
"""The model's width: a 256x256 f32 weight is 256 KiB, over the 64 KiB threshold."""
TOLERANCE = 1e-5
"""Against the interpreter, relative to the largest |output|: ~5x the 2e-6 measured."""


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("iree_cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(iree_compile.CACHE_ENV, str(folder))
        yield folder


def accumulator(folder: Path, seed: int, rows: int = WIDTH) -> Path:
    """`s += tanh(x @ W1) @ W2` (a state `s`, weights W1 [WIDTH, rows] and W2 [rows, WIDTH]
    drawn from `seed`), saved as OpenVINO IR; returns the `.xml`."""
    rng = np.random.default_rng(seed)
    x = ops.parameter([1, WIDTH], np.float32, name="x")
    w1 = (rng.standard_normal((WIDTH, rows)) / np.sqrt(WIDTH)).astype(np.float32)
    w2 = (rng.standard_normal((rows, WIDTH)) / np.sqrt(rows)).astype(np.float32)
    hidden = ops.tanh(ops.matmul(x, ops.constant(w1), False, False))
    state = ops.read_value(ops.constant(np.zeros((1, WIDTH), np.float32)), "s")
    total = ops.add(state, ops.matmul(hidden, ops.constant(w2), False, False))
    model = ov.Model([ops.result(total, name="y")], [ops.assign(total, "s")], [x], "acc")
    folder.mkdir(parents=True, exist_ok=True)
    xml = folder / "acc.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def steps(compiled: ts.CompiledModel, count: int = 3) -> list[np.ndarray]:
    request = compiled.create_infer_request()
    x = np.linspace(-1, 1, WIDTH, dtype=np.float32).reshape(1, WIDTH)
    return [request.infer([x])[0] for _ in range(count)]


def assert_close(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    for a, b in zip(got, want, strict=True):
        assert np.abs(a - b).max() <= TOLERANCE * np.abs(b).max()


def test_weights_are_parameters_outside_the_vmfb(cache: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    xml = accumulator(tmp_path, seed=0)
    compiled = ts.compile_model(xml, device="iree")
    assert compiled.executable.flags == DEFAULT_FLAGS  # not a static decoder
    parameters = compiled.executable.parameters
    assert parameters is not None and parameters.nbytes == 2 * WIDTH * WIDTH * 4
    with_parameters = steps(compiled)
    monkeypatch.setattr(IreeExecutable, "parameters_from", None)
    inline = ts.compile_model(xml, device="iree")
    assert inline.executable.parameters is None
    # the weights (512 KiB) are in the inline module only
    assert compiled.executable.vmfb.stat().st_size < 64 << 10
    assert inline.executable.vmfb.stat().st_size > parameters.nbytes
    for a, b in zip(with_parameters, steps(inline), strict=True):
        np.testing.assert_array_equal(a, b)  # measured: equal
    assert_close(with_parameters, steps(ts.compile_model(xml)))


def test_models_differing_in_weights_share_the_vmfb(cache: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    first = ts.compile_model(accumulator(tmp_path / "a", seed=0), device="iree")

    def no_compiler(*args: object) -> None:
        raise AssertionError("iree-compile ran: the cached .vmfb was not used")

    monkeypatch.setattr(iree_compile, "_iree_compile", no_compiler)
    other_xml = accumulator(tmp_path / "b", seed=1)
    other = ts.compile_model(other_xml, device="iree")
    assert other.executable.vmfb == first.executable.vmfb
    got, want = steps(other), steps(ts.compile_model(other_xml))
    assert_close(got, want)
    assert not np.allclose(got[0], steps(first)[0])  # each model computes with its own


def test_requests_share_the_weights(cache: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """IREE copies a parameter into each context unless it is 64-byte aligned: the
    executable aligns them once, so more requests cost no copy of the 16 MiB of weights.
    (Compiled without data tiling: with it, IREE packs the weights into each context's
    own layout at its first call, a copy per request; docs/runtime.md.)"""
    monkeypatch.setattr(IreeExecutable, "__init__",
                        partialmethod(IreeExecutable.__init__, flags=TARGET_FLAGS))
    compiled = ts.compile_model(accumulator(tmp_path, seed=2, rows=32 * WIDTH), device="iree")
    parameters = compiled.executable.parameters
    assert parameters is not None and parameters.nbytes == 16 << 20
    assert all(address(view) % ALIGNMENT == 0 for view in parameters.buffers.values())
    first = steps(compiled, 1)[0]  # pages the weights in
    before = _resident()
    results = [steps(compiled, 1)[0] for _ in range(3)]
    grown = _resident() - before
    assert grown < 4 << 20, f"{grown >> 20} MiB more resident after three more requests"
    for result in results:
        np.testing.assert_array_equal(result, first)


def _resident() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


def test_aligned_copies_only_what_is_not_aligned() -> None:
    room = np.arange(1024, dtype=np.uint8)
    start = -room.ctypes.data % ALIGNMENT
    at_boundary = memoryview(room[start:start + 256])
    assert address(aligned(at_boundary)) == address(at_boundary)
    off = memoryview(room[start + 4:start + 260])
    copy = aligned(off)
    assert address(copy) % ALIGNMENT == 0 and address(copy) != address(off)
    assert bytes(copy) == bytes(off) and copy.readonly


def _run_module(tmp_path: Path, vmfb: Path, *parameters: str
                ) -> subprocess.CompletedProcess[str]:
    """IREE's own runner on `vmfb`'s `main` with the test input (output in `y.npy`)."""
    runner = Path(sys.executable).parent / "iree-run-module"
    np.save(tmp_path / "x.npy", np.linspace(-1, 1, WIDTH, dtype=np.float32).reshape(1, WIDTH))
    return subprocess.run([str(runner), f"--module={vmfb}", *parameters, "--function=main",
                           f"--input=@{tmp_path / 'x.npy'}", f"--output=@{tmp_path / 'y.npy'}"],
                          capture_output=True, text=True, check=False)


def test_cli_writes_one_self_contained_vmfb(cache: Path, tmp_path: Path) -> None:
    """`tosa-state compile` writes the weights into the `.vmfb`: one file, which IREE's
    runner runs alone."""
    from tosa_state.tools import main as tosa_state_main

    xml = accumulator(tmp_path, seed=0)
    vmfb = tmp_path / "out" / "acc.vmfb"
    vmfb.parent.mkdir()
    assert tosa_state_main.main(["compile", str(xml), "-o", str(vmfb), "-q"]) == 0
    assert [p.name for p in vmfb.parent.iterdir()] == ["acc.vmfb"]
    assert vmfb.stat().st_size > 2 * WIDTH * WIDTH * 4  # the two 256 KiB weights
    done = _run_module(tmp_path, vmfb)
    assert done.returncode == 0, done.stderr
    assert_close([np.load(tmp_path / "y.npy")], steps(ts.compile_model(xml), 1))


def test_cli_writes_the_parameters_to_the_archive_asked_for(cache: Path,
                                                            tmp_path: Path) -> None:
    from tosa_state.tools import main as tosa_state_main

    xml = accumulator(tmp_path, seed=0)
    vmfb, archive = tmp_path / "acc.vmfb", tmp_path / "weights.irpa"
    assert tosa_state_main.main(["compile", str(xml), "-o", str(vmfb), "--parameters",
                                 str(archive), "-q"]) == 0
    assert archive.stat().st_size > 2 * WIDTH * WIDTH * 4
    assert vmfb.stat().st_size < 64 << 10  # the program only
    done = _run_module(tmp_path, vmfb, f"--parameters=model={archive}")
    assert done.returncode == 0, done.stderr
    assert_close([np.load(tmp_path / "y.npy")], steps(ts.compile_model(xml), 1))
    done = _run_module(tmp_path, vmfb)
    assert done.returncode != 0 and "model" in done.stderr  # the weights are not in it


def _tosa_state_cli(*args: str, env: dict[str, str] | None = None
                    ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from tosa_state.tools.main import "
                           "entry_point; entry_point()", *args],
                          capture_output=True, text=True, check=False, env=env)


def test_cli_writes_neither_file_when_one_cannot_be_written(cache: Path,
                                                            tmp_path: Path) -> None:
    xml = accumulator(tmp_path, seed=0)
    vmfb, archive = tmp_path / "acc.vmfb", tmp_path / "weights.irpa"
    done = _tosa_state_cli("compile", str(xml), "-o", str(tmp_path / "missing" / "acc.vmfb"),
                           "--parameters", str(archive), "-q")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "missing" in done.stderr
    done = _tosa_state_cli("compile", str(xml), "-o", str(vmfb), "--parameters",
                           str(tmp_path / "missing" / "weights.irpa"), "-q")
    assert done.returncode == 1 and "missing" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["acc.bin", "acc.xml"]


def test_cli_refuses_weights_too_large_to_inline_and_names_the_option(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Past `inline_limit` (the SmolLM-135M-shaped decoder's 513 MiB: docs/runtime.md) the
    weights go to an archive; the limit comes down to 256 KiB for the test's 512 KiB."""
    from tosa_state.tools import main as tosa_state_main
    from tosa_state.tools.cli import run_tool

    monkeypatch.setattr(IreeExecutable, "inline_limit", 256 << 10)
    xml = accumulator(tmp_path, seed=0)
    vmfb = tmp_path / "acc.vmfb"
    with pytest.raises(SystemExit) as exit_code:
        run_tool(lambda: tosa_state_main.main(["compile", str(xml), "-o", str(vmfb), "-q"]))
    assert exit_code.value.code == 1
    err = capsys.readouterr().err
    assert ("error: the model's weights (512 KiB) are too large to compile into the .vmfb "
            "(at most 256 KiB inline): write them to a parameter archive beside it with "
            "--parameters MODEL.irpa") in err
    assert not vmfb.exists()
    with pytest.raises(ts.TosaStateError, match="keep them as IREE parameters"):
        _compile_model(xml, device="iree", inline_weights=True)
    assert ts.compile_model(xml, device="iree").executable.parameters is not None


def test_static_decoder_with_its_weights_as_parameters_generates_as_openvino(
        cache: Path, llm_exports: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The real-size decoder's path (`benchmarks/llm_decode.py --size small --static-state`):
    static entries whose weights are parameters. The tiny Llama's largest weight is 32 KiB,
    so the threshold comes down to 4 KiB to make its weights parameters."""
    import llm_models

    monkeypatch.setattr(IreeExecutable, "parameters_from", 4096)
    compiled = ts.compile_model(llm_exports["llama"], device="iree",
                                static_state={"capacity": 32, "prefill_chunk": 8})
    parameters = compiled.executable.parameters
    assert parameters is not None and len(parameters.buffers) >= 8
    # --iree-opt-data-tiling miscompiles the real-size decode entry (iree_compile.DECODER_FLAGS)
    assert compiled.executable.flags == DECODER_FLAGS
    pair = llm_models.StaticGenerationPair(llm_exports["llama"], 32, compiled)
    pair.generate(llm_models.prompt(1, 11, seed=3), steps=3)  # a prefill of two chunks
    pair.reset()
    pair.generate(llm_models.prompt(1, 1, seed=4), steps=2)  # decode from a reset


def test_inline_weights_and_parameters_are_for_device_iree_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tosa_state.tools import main as tosa_state_main
    from tosa_state.tools.cli import run_tool

    xml = accumulator(tmp_path, seed=0)
    with pytest.raises(ts.TosaStateError,
                       match="error: inline_weights is for device 'iree', not 'interpreter'"):
        _compile_model(xml, inline_weights=True)
    with pytest.raises(SystemExit) as exit_code:
        run_tool(lambda: tosa_state_main.main(["compile", str(xml), "--target", "tosa", "-o",
                                               str(tmp_path / "a.tosa"), "--parameters",
                                               str(tmp_path / "a.irpa")]))
    assert exit_code.value.code == 1
    assert ("error: --parameters is for --target iree; --target tosa lowers for its target"
            in capsys.readouterr().err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["acc.bin", "acc.xml"]
