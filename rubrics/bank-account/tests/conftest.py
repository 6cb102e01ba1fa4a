import pytest

from bank_account import BankAccount


@pytest.fixture
def funded():
    account = BankAccount()
    account.open()
    account.deposit(50)
    return account
