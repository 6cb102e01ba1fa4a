def create_inventory(items):
    inventory = {}
    for item in items:
        inventory[item] += 1
    return inventory


def add_items(inventory, items):
    for item in items:
        inventory[item] = inventory.get(item, 0) + 1
    return inventory


def decrement_items(inventory, items):
    for item in items:
        if inventory.get(item, 0) > 0:
            inventory[item] -= 1
    return inventory


def remove_item(inventory, item):
    inventory.pop(item, None)
    return inventory


def list_inventory(inventory):
    return [(item, count) for item, count in inventory.items() if count > 0]


def out_of_stock(inventory):
    return {item for item, count in inventory.items() if count == 0}
