import unittest

from bank_account import BankAccount, InsufficientFunds


class BankAccountTest(unittest.TestCase):
    def setUp(self):
        self.account = BankAccount()
        self.account.open()

    def tearDown(self):
        self.account = None

    def test_new_account_has_zero_balance(self):
        self.assertEqual(self.account.balance, 0)

    def test_deposit_and_withdraw(self):
        self.account.deposit(100)
        self.account.withdraw(30)
        self.assertEqual(self.account.balance, 70)

    def test_cannot_withdraw_more_than_balance(self):
        self.account.deposit(25)
        with self.assertRaises(InsufficientFunds) as err:
            self.account.withdraw(50)
        self.assertEqual(err.exception.args[0], "amount must be less than balance")

    def test_insufficient_funds_is_a_value_error(self):
        with self.assertRaises(ValueError):
            self.account.withdraw(1)

    def test_closed_account_rejects_operations(self):
        self.account.close()
        for operation in ("deposit", "withdraw"):
            with self.subTest(operation=operation):
                with self.assertRaises(ValueError) as err:
                    getattr(self.account, operation)(10)
                self.assertEqual(err.exception.args[0], "account not open")

    def test_cannot_open_twice(self):
        with self.assertRaises(ValueError) as err:
            self.account.open()
        self.assertEqual(str(err.exception), "account already open")
