"""The committed generated package is exactly what generate.sh makes from openapi.json now."""

import filecmp
import shutil
import subprocess
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent
COMMITTED = PACKAGE / "signet_client" / "generated"
DOCUMENT = PACKAGE.parent.parent / "openapi.json"


def tree(root: Path) -> dict:
    return {
        p.relative_to(root).as_posix(): p
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and ".ruff_cache" not in p.parts
    }


def test_generated_code_is_current(tmp_path):
    if shutil.which("openapi-python-client") is None:
        pytest.skip(
            "openapi-python-client is not installed, so the generated code cannot be checked: "
            "python3 -m pip install -r requirements-generate.txt"
        )
    if not DOCUMENT.exists():
        pytest.skip(f"{DOCUMENT} not found (package used outside the repository)")
    out = tmp_path / "generated"
    done = subprocess.run(["bash", str(PACKAGE / "generate.sh"), str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"generate.sh failed:\n{done.stdout}\n{done.stderr}"
    fresh, committed = tree(out), tree(COMMITTED)
    assert sorted(fresh) == sorted(committed), (
        f"files differ: only generated now {sorted(set(fresh) - set(committed))[:10]}, "
        f"only committed {sorted(set(committed) - set(fresh))[:10]}; run clients/python/generate.sh"
    )
    changed = [name for name in fresh if not filecmp.cmp(fresh[name], committed[name], shallow=False)]
    assert not changed, f"out of date: {changed[:10]} (of {len(changed)}); run clients/python/generate.sh"
