"""The lobby's automatic table name (issue 26, item 4): a second table of the same game and stakes gets the next
free name, and a name that is taken is refused with a free one proposed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from studpoker.server.names import name_key
from studpoker.server.room import free_table_name

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
        "a table named 'five-card STUD 10/20' is open: choose another name, such as 'five-card STUD 10/20 #4'"
    )


def test_free_names_fit_the_length_of_a_name() -> None:
    long = "x" * 40
    taken = {name_key(long), name_key("x" * 37 + " #2")}
    assert free_table_name(long, taken) == "x" * 37 + " #3"
    assert free_table_name("Razz 10/20", set()) == "Razz 10/20"
