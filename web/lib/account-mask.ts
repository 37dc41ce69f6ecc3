/**
 * Account numbers as a money record names them in passing ("to Santander ...8759"): the last four
 * characters tell a reviewer which account it is; the whole number stays on the record's page, so a
 * list, a toast or a screenshot of a hold does not carry it.
 */

/** What stands for the hidden part. ASCII, so the text reads the same in every language and font. */
export const MASK = '...';
const KEPT = 4;

/** A token that is an account: a card or account number, a phone, a wallet address (8+ characters, with digits). */
const ACCOUNT_TOKEN = /^\+?[A-Za-z0-9][A-Za-z0-9-]{7,}$/;

/** "6217000012348759" -> "...8759"; a token too short to hide anything is left whole. */
export function maskAccount(account: string): string {
  const plain = account.replace(/[\s-]/g, '');
  return plain.length <= KEPT ? account : `${MASK}${plain.slice(-KEPT)}`;
}

/**
 * A payee's description with its account numbers masked: "Santander 6217000012348759" ->
 * "Santander ...8759", "USDT (TRC20) TN3W4…x9Fz" -> "USDT (TRC20) ...x9Fz". Words (a bank's name, a
 * network) stay. `account`, when the record names its bare account apart, is masked wherever it
 * occurs, spaces and all; otherwise every account-like token is.
 */
export function maskAccounts(text: string, account?: string): string {
  const bare = account?.trim() ?? '';
  if (bare.length > KEPT && text.includes(bare)) return text.split(bare).join(maskAccount(bare));
  return text
    .split(/(\s+)/)
    .map((token) => (ACCOUNT_TOKEN.test(token) && /\d/.test(token) ? maskAccount(token) : token))
    .join('');
}
