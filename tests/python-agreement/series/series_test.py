import types

import pytest

from series import slices


@pytest.fixture
def digits():
    return "918493904243"


@pytest.fixture
def first_three(digits):
    return slices(digits, 3)


def test_slices_is_a_generator(first_three):
    assert isinstance(first_three, types.GeneratorType)


def test_slices_are_produced_on_demand(first_three):
    assert next(first_three) == "918"
    assert next(first_three) == "184"


def test_slices_of_one_from_one():
    assert list(slices("1", 1)) == ["1"]


def test_slices_of_one_from_two():
    assert list(slices("12", 1)) == ["1", "2"]


def test_slices_of_two():
    assert list(slices("35", 2)) == ["35"]


def test_slices_of_two_overlap():
    assert list(slices("9142", 2)) == ["91", "14", "42"]


def test_slices_can_include_duplicates():
    assert list(slices("777777", 3)) == ["777", "777", "777", "777"]


def test_slices_of_a_long_series(digits):
    assert list(slices(digits, 5)) == [
        "91849",
        "18493",
        "84939",
        "49390",
        "93904",
        "39042",
        "90424",
        "04243",
    ]


def test_whole_series_is_one_slice(digits):
    assert tuple(slices(digits, len(digits))) == (digits,)


@pytest.mark.parametrize(
    "series, length, message",
    [
        ("12345", 6, "slice length cannot be greater than series length"),
        ("12345", 0, "slice length cannot be zero"),
        ("123", -1, "slice length cannot be negative"),
        ("", 1, "series cannot be empty"),
    ],
)
def test_invalid_slices_are_rejected_when_asked_for(series, length, message):
    with pytest.raises(ValueError) as err:
        slices(series, length)
    assert err.value.args[0] == message
