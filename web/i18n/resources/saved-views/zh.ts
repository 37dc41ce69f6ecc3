import type en from './en.js';

const zh = {
  'views.loading': '正在加载已保存的视图…',
  'views.loadFailed': '无法加载已保存的视图',
  'views.retry': '重试',
  'views.saving': '正在保存…',
  'views.saveFailed': '无法保存视图',
  'views.deleteFailed': '无法删除视图',
  'views.full': '此列表已有 {{max}} 个已保存的视图，请先删除一个',
  'views.fullAdmin': '您在所有列表中已保存 {{max}} 个视图，请先删除一个',
  'views.uploaded_one': '此浏览器中保存的 {{count}} 个视图现已保存到你的账号',
  'views.uploaded_other': '此浏览器中保存的 {{count}} 个视图现已保存到你的账号',
} satisfies Record<keyof typeof en, string>;

export default zh;
