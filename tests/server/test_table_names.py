"""The lobby's automatic table name (issue 26, item 4): a second table of the same game and stakes gets the next
free name, and a name that is taken is refused with a free one proposed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from studpoker.server.room import numbered_name

from .conftest import signup


def test_the_automatic_name_of_an_open_tables_stakes_becomes_the_next_free_one(client: TestClient) -> None:
    ann = signup(client, "ann")
    made = [ann.post("/api/tables", {"variant": "STUD5", "small_bet": 10}) for _ in range(3)]
    assert [m.status_code for m in made] == [201, 201, 201], made[-1].text
    assert [m.json()["name"] for m in made] == [
        "Five-card stud 10/20",
        "Five-card stud 10/20 #2",
        "Five-card stud 10/20 #3",
    ]
    taken = ann.post("/api/tables", {"variant": "STUD5", "small_bet": 10, "name": "five-card STUD 10/20"})
    assert taken.status_code == 409
    assert taken.json()["error"]["message"] == (
        "the name 'five-card STUD 10/20' looks like the open table 'Five-card stud 10/20': choose another name, such"
        " as 'five-card STUD 10/20 #4'"
    )
    same = ann.post("/api/tables", {"variant": "STUD5", "small_bet": 10, "name": "Five-card stud 10/20 #2"})
    assert same.json()["error"]["message"] == (
        "a table named 'Five-card stud 10/20 #2' is open: choose another name, such as 'Five-card stud 10/20 #2 #2'"
    )


def test_numbered_names_fit_the_length_of_a_name() -> None:
    assert numbered_name("x" * 40, 3) == "x" * 37 + " #3"
    assert numbered_name("Razz 10/20", 12) == "Razz 10/20 #12"
