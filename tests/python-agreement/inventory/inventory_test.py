import pytest

from inventory import (
    add_items,
    create_inventory,
    decrement_items,
    list_inventory,
    out_of_stock,
    remove_item,
)


def test_create_inventory():
    assert create_inventory(["wood", "iron", "iron", "diamond", "diamond"]) == {"wood": 1, "iron": 2, "diamond": 2}


def test_create_empty_inventory():
    assert create_inventory([]) == {}


def test_stocked_fixture(stocked):
    assert stocked == {"wood": 3, "iron": 2, "diamond": 1}


def test_add_items(inventory):
    assert add_items(inventory, ["coal", "iron"]) == {"coal": 4, "wood": 5, "diamond": 1, "iron": 1}


def test_add_items_to_stocked(stocked):
    assert add_items(stocked, ["iron"])["iron"] == 3


def test_decrement_items(inventory):
    assert decrement_items(inventory, ["coal", "coal", "diamond"]) == {"coal": 1, "wood": 5, "diamond": 0}


def test_decrement_never_goes_below_zero(inventory):
    assert decrement_items(inventory, ["diamond", "diamond", "diamond"])["diamond"] == 0


def test_remove_item(inventory):
    assert remove_item(inventory, "coal") == {"wood": 5, "diamond": 1}


def test_remove_missing_item_changes_nothing(inventory):
    assert remove_item(inventory, "gold") == {"coal": 3, "wood": 5, "diamond": 1}


def test_list_inventory_gives_pairs(stocked):
    assert list_inventory(stocked) == [("wood", 3), ("iron", 2), ("diamond", 1)]


def test_list_inventory_leaves_out_empty_items():
    assert list_inventory({"coal": 7, "wood": 0, "silver": 1}) == [("coal", 7), ("silver", 1)]


@pytest.mark.parametrize(
    "items, expected",
    [
        ({"coal": 0, "wood": 2, "gold": 0}, {"coal", "gold"}),
        ({"wood": 1}, set()),
    ],
)
def test_out_of_stock_is_a_set(items, expected):
    assert out_of_stock(items) == expected
