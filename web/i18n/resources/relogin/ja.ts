import type en from './en.js';

const ja = {
  'relogin.title': '再ログイン',
  'relogin.intro': '再ログインすると続けられます。このページに入力した内容はそのまま残ります。',
  'relogin.submit': 'ログインして続ける',
  'relogin.done': '再ログインしました',
  'relogin.otherAccount': '別の管理者としてログインしました。ページを再読み込みします',
} satisfies Record<keyof typeof en, string>;

export default ja;
