import { BankAccount, ValueError } from './bank-account';

describe('Bank Account', () => {
  let account;
  beforeEach(() => {
    account = new BankAccount();
  });

  test('newly opened account has zero balance', () => {
    account.open();
    expect(account.balance).toEqual(0);
  });

  test('can deposit money', () => {
    account.open();
    account.deposit(100);
    expect(account.balance).toEqual(100);
  });

  test('can withdraw money', () => {
    account.open();
    account.deposit(100);
    account.withdraw(50);
    expect(account.balance).toEqual(50);
  });

  test('checking balance of closed account throws error', () => {
    account.open();
    account.close();
    expect(() => account.balance).toThrow(ValueError);
  });

  test('deposit into closed account throws error', () => {
    account.open();
    account.close();
    expect(() => account.deposit(50)).toThrow(ValueError);
  });

  test('cannot withdraw more than deposited', () => {
    account.open();
    account.deposit(25);
    expect(() => account.withdraw(50)).toThrow(ValueError);
  });

  test('cannot deposit negative amount', () => {
    account.open();
    expect(() => account.deposit(-100)).toThrow(ValueError);
  });

  test('cannot open an already opened account', () => {
    account.open();
    expect(() => account.open()).toThrow(ValueError);
  });

  test('the error says what went wrong', () => {
    account.open();
    expect(() => account.withdraw(1)).toThrow(/insufficient funds/i);
  });

  test('each account is its own', () => {
    const other = new BankAccount();
    account.open();
    other.open();
    account.deposit(10);
    expect([account.balance, other.balance]).toStrictEqual([10, 0]);
  });

  xtest('can handle concurrent transactions', () => {
    account.open();
    expect(account.balance).toBe(0);
  });
});
