import pytest

from clock import Clock


@pytest.mark.parametrize(
    "hour, minute, expected",
    [
        (8, 0, "08:00"),
        (11, 9, "11:09"),
        (24, 0, "00:00"),
        (25, 0, "01:00"),
        (100, 0, "04:00"),
        (1, 60, "02:00"),
        (0, 1723, "04:43"),
        (-1, 15, "23:15"),
        (1, -40, "00:20"),
        (-25, -160, "20:20"),
        (201, 3001, "11:01"),
    ],
)
def test_create_clock(hour, minute, expected):
    assert str(Clock(hour, minute)) == expected


def test_repr_shows_the_normalised_time():
    assert repr(Clock(8, 0)) == "Clock(8, 0)"
    assert repr(Clock(25, 70)) == "Clock(2, 10)"


@pytest.mark.parametrize(
    "start, minutes, expected",
    [((10, 0), 3, "10:03"), ((0, 45), 40, "01:25"), ((23, 59), 2, "00:01"), ((1, 1), 3500, "11:21")],
    ids=["add-minutes", "add-across-hour", "add-across-midnight", "add-more-than-a-day"],
)
def test_add(start, minutes, expected):
    assert str(Clock(*start) + minutes) == expected


@pytest.mark.parametrize(
    "start, minutes, expected",
    [((10, 3), 3, "10:00"), ((0, 3), 4, "23:59"), ((5, 32), 1500, "04:32")],
)
def test_subtract(start, minutes, expected):
    assert str(Clock(*start) - minutes) == expected


def test_clocks_with_same_time_are_equal():
    assert Clock(15, 37) == Clock(15, 37)


def test_clocks_a_minute_apart_are_not_equal():
    assert Clock(15, 36) != Clock(15, 37)


def test_clocks_a_day_apart_are_equal():
    assert Clock(10, 37) == Clock(34, 37)


def test_clocks_with_negative_hours_that_wrap_are_equal():
    assert Clock(-2, 40) == Clock(21, 100)


def test_adding_returns_a_new_clock():
    clock = Clock(10, 0)
    later = clock + 30
    assert clock == Clock(10, 0)
    assert later == Clock(10, 30)
