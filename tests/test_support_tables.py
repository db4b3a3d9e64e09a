"""The pair tables of the generated rules (``runtime/support.py``): ``DISTANCE[a][b]`` and
``DIRECTION_TO[a][b]`` make a row on its first read and keep it as a plain dictionary entry."""

import pytest

from rulecraft.runtime.support import Distances


def test_a_distance_row_is_made_once_and_read_as_a_dictionary_entry():
    # a path of four spaces: 0 - 1 - 2 - 3
    table = Distances(((1,), (0, 2), (1, 3), (2,)))
    assert len(table) == 4 and table
    assert table[0] == (0, 1, 2, 3) and table[3][0] == 3
    assert dict.__contains__(table, 0) and not dict.__contains__(table, 1)
    assert table[0] is table[0]


@pytest.mark.parametrize("start", [-1, 4, "0"])
def test_a_row_off_the_board_is_an_index_error(start):
    with pytest.raises(IndexError):
        Distances(((1,), (0,)))[start]


def test_two_tables_of_one_board_stay_two_objects():
    one, two = Distances(((1,), (0,))), Distances(((1,), (0,)))
    assert one != two and len({one, two}) == 2
