import pytest


@pytest.fixture
def inventory():
    return {"coal": 3, "wood": 5, "diamond": 1}


@pytest.fixture
def stocked():
    # Built by the student's own create_inventory: if that raises, every test using it is an error, not a failure.
    from inventory import create_inventory

    return create_inventory(["wood", "iron", "iron", "diamond", "wood", "wood"])
