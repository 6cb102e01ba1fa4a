from receipt import print_receipt


def test_single_item(capsys):
    print_receipt([("Tea", 2.5)])
    captured = capsys.readouterr()
    assert captured.out == "Tea                 2.50\nTOTAL               2.50\n"


def test_several_items_and_their_total(capsys):
    print_receipt([("Bread", 3.2), ("Milk", 1.15), ("Eggs", 4)])
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "Bread               3.20",
        "Milk                1.15",
        "Eggs                4.00",
        "TOTAL               8.35",
    ]


def test_unicode_names_are_padded_by_characters(capsys):
    print_receipt([("Crème brûlée", 6.75), ("Smørrebrød", 9)])
    out = capsys.readouterr().out
    assert "Crème brûlée        6.75\n" in out
    assert out.endswith("TOTAL              15.75\n")


def test_empty_receipt_prints_only_the_total(capsys):
    print_receipt([])
    assert capsys.readouterr().out == "TOTAL               0.00\n"


def test_nothing_goes_to_stderr_and_nothing_is_returned(capsys):
    result = print_receipt([("Tea", 2.5)])
    captured = capsys.readouterr()
    assert result is None
    assert captured.err == ""
