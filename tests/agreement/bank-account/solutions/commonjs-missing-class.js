// CommonJS, and ValueError is not exported at all.
class BankAccount {
  constructor() { this.state = { open: false, balance: 0 }; }
  open() { this.state.open = true; }
  close() { this.state.open = false; }
  deposit(n) { this.state.balance += n; }
  withdraw(n) { this.state.balance -= n; }
  get balance() { return this.state.balance; }
}
module.exports = { BankAccount };
