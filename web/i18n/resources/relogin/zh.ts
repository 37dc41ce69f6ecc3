import type en from './en.js';

const zh = {
  'relogin.title': '重新登录',
  'relogin.intro': '重新登录即可继续，本页已输入的内容会保留。',
  'relogin.submit': '登录并继续',
  'relogin.done': '已重新登录',
  'relogin.otherAccount': '已用另一个管理员账号登录，页面将重新加载',
} satisfies Record<keyof typeof en, string>;

export default zh;
