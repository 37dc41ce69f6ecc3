import type en from './en.js';

const ja = {
  'views.loading': '保存したビューを読み込んでいます…',
  'views.loadFailed': '保存したビューを読み込めませんでした',
  'views.retry': '再試行',
  'views.saving': '保存しています…',
  'views.saveFailed': 'ビューを保存できませんでした',
  'views.deleteFailed': 'ビューを削除できませんでした',
  'views.full': 'この一覧には保存したビューがすでに {{max}} 件あります。先に 1 件削除してください',
  'views.fullAdmin': 'すべての一覧で保存したビューがすでに {{max}} 件あります。先に 1 件削除してください',
  'views.uploaded_one': 'このブラウザーに保存していた {{count}} 件のビューをアカウントに保存しました',
  'views.uploaded_other': 'このブラウザーに保存していた {{count}} 件のビューをアカウントに保存しました',
} satisfies Record<keyof typeof en, string>;

export default ja;
