"""The same simulation as Ray tasks on a local cluster started here (2 CPUs) gives the same result, to the byte."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from studpoker.simulate import SimulationSpec, simulate

from ..cli.helpers import stud

ray = pytest.importorskip("ray", reason="Ray is not installed (the [ray] extra)")

SPEC = SimulationSpec(bots=("tag", "calling-station", "random"), variant="7stud8", hands=1_800, chunk=300, seed=8)


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_tasks_give_the_same_result_as_one_process(cluster: None) -> None:
    here = simulate(SPEC, workers=1)
    on_ray = simulate(SPEC, ray="auto")  # the session started by the fixture
    assert on_ray.to_dict() == here.to_dict()
    duplicate = SPEC.replace(duplicate=True, hands=600)
    assert simulate(duplicate, ray="auto").to_dict() == simulate(duplicate, workers=2).to_dict()


def test_the_json_output_is_byte_identical_on_1_and_2_processes_and_ray(
    cluster: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "--bots", "tag,random", "--variant", "razz", "--hands", "900", "--chunk", "300", "--seed", "4"]
    outputs = []
    for extra in (["--workers", "1"], ["--workers", "2"], ["--ray", "local"]):
        code, out, err = stud(capsys, *args, *extra, "--json")
        assert code == 0, err
        assert "timing" not in json.loads(out)
        outputs.append(out)
    assert outputs[0] == outputs[1] == outputs[2]


def test_an_error_in_a_ray_task_is_the_error_itself(cluster: None) -> None:
    spec = SimulationSpec(bots=("tag", "external:false"), hands=10, seed=1)
    with pytest.raises(Exception, match="external bot 'false'") as caught:
        simulate(spec, ray="auto")
    assert "Traceback" not in str(caught.value)
