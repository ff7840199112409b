"""``import studpoker`` stays light: no NumPy, no table read or built until an evaluation needs it."""

import subprocess
import sys


def test_import_is_light() -> None:
    code = (
        "import sys, studpoker\n"
        "from studpoker.evaluation import _tables\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
        "assert _tables._stored.cache_info().currsize == 0, 'tables loaded at import'\n"
        "studpoker.high_value('As Kd Qc Jh 9s')\n"
        "assert _tables._stored.cache_info().currsize == 1, 'tables not loaded on first use'\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout == "ok\n", result.stderr
