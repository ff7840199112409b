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


def test_the_engine_loads_its_state_machine_on_first_use() -> None:
    """``studpoker.engine`` names its hand state machine at once but loads it when first asked for."""
    code = (
        "import sys\n"
        "import studpoker.engine as engine\n"
        "print('studpoker.engine.state' in sys.modules)\n"
        "from studpoker.engine import HandState, best_five\n"
        "print('studpoker.engine.state' in sys.modules, HandState is engine.HandState, callable(best_five))\n"
        "print(sorted(set(engine.__all__) - set(dir(engine)) - set(engine._LAZY)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["False", "True True True", "[]"]


def test_the_front_door_names_load_on_first_use() -> None:
    """``import studpoker`` loads neither the engine's state machine, equity, histories nor NumPy; each name of
    ``__all__`` then resolves, the lazy ones to the same objects their sub-packages hold."""
    code = (
        "import sys, studpoker\n"
        "heavy = ['numpy', 'studpoker.engine.state', 'studpoker.equity', 'studpoker.history', 'studpoker.table']\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "missing = [n for n in studpoker.__all__ if getattr(studpoker, n, None) is None]\n"
        "import studpoker.engine, studpoker.equity, studpoker.history, studpoker.table\n"
        "same = studpoker.HandState is studpoker.engine.HandState and studpoker.Range is studpoker.equity.Range\n"
        "same = same and studpoker.replay is studpoker.history.replay\n"
        "same = same and studpoker.equity is sys.modules['studpoker.equity']\n"
        "print(missing, same, sorted(set(studpoker.__all__) - set(dir(studpoker))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["[]", "[] True []"]
