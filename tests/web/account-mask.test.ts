import { describe, expect, it } from 'vitest';
import { maskAccount, maskAccounts } from '../../web/lib/account-mask.js';

describe('account numbers named in passing', () => {
  it('keeps the last four characters of an account', () => {
    expect(maskAccount('6217000012348759')).toBe('...8759');
    expect(maskAccount('6217 0000 1234 8759')).toBe('...8759');
    expect(maskAccount('+34684588284')).toBe('...8284');
    // Nothing to hide in four characters or fewer.
    expect(maskAccount('8759')).toBe('8759');
  });

  it('masks the account in a payee description and leaves its words', () => {
    expect(maskAccounts('Santander 6217000012348759')).toBe('Santander ...8759');
    expect(maskAccounts('Alipay +34684588284')).toBe('Alipay ...8284');
    expect(maskAccounts('USDT (TRC20) TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9')).toBe('USDT (TRC20) ...b3m9');
    // A bank's name with digits, a network's name: words, not accounts.
    expect(maskAccounts('Bank 21 Visa')).toBe('Bank 21 Visa');
    expect(maskAccounts('China Merchants Bank')).toBe('China Merchants Bank');
  });

  it('masks the bare account the record names, however the description spaces it', () => {
    expect(maskAccounts('ICBC 6217 0000 1234 8759', '6217 0000 1234 8759')).toBe('ICBC ...8759');
    expect(maskAccounts('Santander 6217000012348759', '6217000012348759')).toBe('Santander ...8759');
    // An account the description does not hold: its own tokens are masked.
    expect(maskAccounts('Santander 6217000012348759', '999999999')).toBe('Santander ...8759');
  });
});
