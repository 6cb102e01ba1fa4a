def append(list1, list2):
    return list1 + list2


def concat(lists):
    result = []
    for item in lists:
        result = append(result, item)
    return result


def filter(function, items):
    return [item for item in items if function(item)]


def length(items):
    count = 0
    for _ in items:
        count += 1
    return count


def map(function, items):
    return [function(item) for item in items]


def foldl(function, items, initial):
    acc = initial
    for item in items:
        acc = function(acc, item)
    return acc


def foldr(function, items, initial):
    acc = initial
    for item in reverse(items):
        acc = function(acc, item)
    return acc


def reverse(items):
    return items[::-1]
