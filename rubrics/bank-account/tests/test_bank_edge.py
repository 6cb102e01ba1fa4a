import pytest

from bank_account import BankAccount, interest


@pytest.mark.parametrize("amount", [0, -5])
def test_deposit_must_be_positive(funded, amount):
    with pytest.raises(ValueError, match="greater than 0"):
        funded.deposit(amount)


def test_withdraw_everything(funded):
    funded.withdraw(50)
    assert funded.balance == 0


@pytest.mark.parametrize("balance,rate,expected", [(1000, 0.05, 50.0), (333.33, 0.031, 10.33), (0, 0.5, 0.0)])
def test_interest(balance, rate, expected):
    assert interest(balance, rate) == pytest.approx(expected)


def test_balance_of_closed_account_is_an_error():
    account = BankAccount()
    with pytest.raises(ValueError, match="account not open"):
        account.balance
