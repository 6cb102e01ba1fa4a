import math

import pytest

from stats import summary


@pytest.fixture
def readings():
    return [2.5, 3.1, 4.7, 1.9, 3.3]


@pytest.fixture
def guarded_readings(readings):
    given = list(readings)
    yield given
    # Checked after the test: a summary that reorders its input passes the test and errors in teardown.
    assert given == readings, "summary() changed the list it was given"


def test_median_of_guarded_readings(guarded_readings):
    assert summary(guarded_readings)["median"] == 3.1


def test_mean_median_and_stdev(readings):
    assert summary(readings) == pytest.approx({"mean": 3.1, "median": 3.1, "stdev": 1.0488088482})


def test_even_number_of_values_median_is_the_middle_pair_mean():
    result = summary([1, 2, 3, 4])
    assert result["median"] == 2.5
    assert result["mean"] == pytest.approx(2.5)


def test_integer_input_gives_float_mean():
    assert summary([1, 2])["mean"] == pytest.approx(1.5)


def test_stdev_is_the_sample_standard_deviation():
    assert summary([2, 4, 4, 4, 5, 5, 7, 9])["stdev"] == pytest.approx(2.138089935, rel=1e-9)


def test_tiny_differences_are_within_tolerance():
    assert summary([0.1, 0.2, 0.3])["mean"] == pytest.approx(0.2)
    assert summary([0.1, 0.2, 0.3])["mean"] != 0.2


def test_the_input_list_is_left_alone(readings):
    summary(readings)
    assert readings == [2.5, 3.1, 4.7, 1.9, 3.3]


def test_a_single_value_has_no_spread():
    result = summary([42.0])
    assert result == {"mean": 42.0, "median": 42.0, "stdev": 0.0}
    assert not math.isnan(result["stdev"])


def test_empty_data_is_rejected():
    with pytest.raises(ValueError, match="summary of empty data"):
        summary([])
