import { RESOURCES, type Resource } from '../contract/index.js';
import type { Operation } from './openapi.js';

/**
 * Matching a foreign backend's names to the console's by name alone: paths to resources, members
 * to fields, query parameters to paging. Words are compared without case or separators
 * (`created_at`, `createdAt` and `CreatedAt` are one word), then through a short list of the
 * names backends commonly give the same thing. A guess is only a start: the probe checks it.
 */

/** Lower case, letters and digits only: `page_size`, `pageSize` and `Page-Size` meet. */
export const flat = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Other names of a resource's records, besides its id (and the id without its plural). */
const RESOURCE_WORDS: Record<string, string[]> = {
  users: ['user', 'member', 'members', 'account', 'accounts', 'customer', 'customers'],
  groups: ['group', 'room', 'rooms', 'team', 'teams', 'chatgroup', 'chatgroups'],
  admins: ['admin', 'administrator', 'administrators', 'manager', 'managers', 'staff'],
  operationLog: ['operationlogs', 'auditlog', 'auditlogs', 'adminlog', 'adminlogs'],
  sensitiveWords: ['sensitiveword', 'badword', 'badwords', 'bannedword', 'bannedwords', 'wordfilter', 'keywords'],
  withdrawalReview: ['withdrawal', 'withdrawals', 'withdraw', 'withdraws', 'cashout', 'cashouts', 'payouts'],
  inviteCodes: ['invitecode', 'invitationcode', 'invitationcodes', 'invitations'],
  appVersions: ['appversion', 'version', 'versions', 'releases'],
  loginRecords: ['loginrecord', 'loginlog', 'loginlogs', 'loginhistory', 'logins'],
  onlineUsers: ['online', 'onlineuser', 'sessions'],
  ipBlacklist: ['blacklist', 'ipblacklists', 'ipbans', 'blockedips'],
  billingRecords: ['bills', 'billing', 'transactions', 'ledger'],
  announcements: ['announcement', 'notices', 'bulletins'],
  suggestions: ['suggestion', 'feedback', 'feedbacks'],
  massMessages: ['broadcasts', 'massmessage'],
  siteFunctions: ['settings', 'siteconfig', 'sitesettings', 'config'],
};

/** Other names of the contract's fields, by field key. */
const FIELD_WORDS: Record<string, string[]> = {
  id: ['uid', 'userid', 'groupid', 'key'],
  account: ['username', 'login', 'loginname', 'email'],
  nickname: ['displayname', 'name', 'nick'],
  phone: ['mobile', 'telephone', 'phonenumber', 'tel'],
  avatar: ['avatarurl', 'faceurl', 'headimg', 'photo', 'picture'],
  status: ['state'],
  state: ['status'],
  registerTime: ['createtime', 'createdat', 'registeredat', 'created', 'signupat', 'joinedat'],
  createTime: ['createdat', 'created', 'creationtime', 'addedat'],
  word: ['text', 'term', 'keyword', 'content'],
  lastLoginTime: ['lastloginat', 'lastlogin', 'lastseenat', 'lastlogintime'],
  lastLoginIp: ['lastip', 'lastloginip'],
  balance: ['walletbalance', 'money', 'amount'],
  privileged: ['vip', 'isvip'],
  ownerAccount: ['owner', 'ownername', 'owneraccount', 'ownerusername'],
  memberCount: ['members', 'membercount', 'membernum', 'size'],
  name: ['title', 'groupname'],
};

/** Query parameter names of paging and search, by the console's name. */
export const PARAM_WORDS: Record<string, string[]> = {
  pageNum: ['page', 'pagenum', 'pageno', 'pagenumber', 'current', 'pageindex', 'p'],
  pageSize: ['size', 'pagesize', 'limit', 'perpage', 'rows', 'per'],
  keyword: ['keyword', 'q', 'query', 'search', 'kw', 'keywords', 'term'],
  sort: ['sort', 'orderby', 'sortby', 'order'],
};

/** The contract's action names, and other words a REST path ends in for them. */
const ACTION_WORDS: Record<string, string[]> = {
  ban: ['block', 'disable', 'suspend', 'lock'],
  unban: ['unblock', 'enable', 'unsuspend', 'unlock'],
  resetPassword: ['resetpwd', 'passwordreset'],
  approve: ['accept', 'pass'],
  reject: ['refuse', 'deny', 'decline'],
  muteAll: ['mute'],
  unmuteAll: ['unmute'],
  dissolve: ['disband', 'dismiss'],
};

const singular = (word: string) =>
  word
    .replace(/(ies)$/, 'y')
    .replace(/(ses|xes)$/, (m) => m.slice(0, -2))
    .replace(/s$/, '');

function resourceWords(resource: Resource): Set<string> {
  const id = flat(resource.id);
  return new Set([id, singular(id), ...(RESOURCE_WORDS[resource.id] ?? [])].map(flat));
}

/** The backend's record calls of one resource, as the document names them. */
export interface MatchedCalls {
  list?: Operation;
  detail?: Operation;
  create?: Operation;
  update?: Operation;
  delete?: Operation;
  config?: Operation;
  saveConfig?: Operation;
  actions: Record<string, Operation>;
}

const segments = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string) => /^\{.+\}$/.test(segment) || segment.startsWith(':');

/** The path's last word that is not a parameter, and whether a parameter follows it (an item path). */
function shape(path: string): { word: string; base: string; item: boolean; tail: string | null } | null {
  const parts = segments(path);
  const last = parts.length - 1;
  // /users, /users/{id}, /users/{id}/ban
  if (last >= 0 && !isParam(parts[last]!)) {
    if (last >= 2 && isParam(parts[last - 1]!))
      return { word: parts[last - 2]!, base: `/${parts.slice(0, last - 1).join('/')}`, item: true, tail: parts[last]! };
    return { word: parts[last]!, base: `/${parts.join('/')}`, item: false, tail: null };
  }
  if (last >= 1 && isParam(parts[last]!))
    return { word: parts[last - 1]!, base: `/${parts.slice(0, last).join('/')}`, item: true, tail: null };
  return null;
}

/** The document's operations by the contract resource they serve (list and settings screens). */
export function matchResources(operations: readonly Operation[]): Map<string, MatchedCalls> {
  const out = new Map<string, MatchedCalls>();
  const taken = new Set<string>();
  for (const resource of RESOURCES) {
    if (resource.kind !== 'list' && resource.kind !== 'settings') continue;
    const words = resourceWords(resource);
    const mine = operations.filter((op) => {
      const s = shape(op.path);
      return s !== null && words.has(flat(s.word)) && !taken.has(s.base);
    });
    if (mine.length === 0) continue;
    const found: MatchedCalls = { actions: {} };
    for (const op of mine) {
      const s = shape(op.path)!;
      if (resource.kind === 'settings') {
        if (s.item || s.tail) continue;
        if (op.method === 'GET') found.config = op;
        else if (op.method !== 'DELETE') found.saveConfig ??= op;
        continue;
      }
      if (s.tail) {
        const action = actionOf(resource, s.tail);
        if (action && op.method !== 'GET' && op.method !== 'DELETE') found.actions[action] = op;
      } else if (!s.item && op.method === 'GET') found.list = op;
      else if (!s.item && op.method === 'POST') found.create = op;
      else if (s.item && op.method === 'GET') found.detail = op;
      else if (s.item && (op.method === 'PUT' || op.method === 'PATCH')) found.update = op;
      else if (s.item && op.method === 'DELETE') found.delete = op;
    }
    if (found.list || found.config) {
      out.set(resource.id, found);
      // A path serves one resource: the first in the contract's order that names it.
      for (const op of mine) taken.add(shape(op.path)!.base);
    }
  }
  return out;
}

function actionOf(resource: Resource, tail: string): string | null {
  if (resource.kind !== 'list') return null;
  const word = flat(tail);
  for (const action of resource.actions ?? []) {
    if (flat(action.name) === word || (ACTION_WORDS[action.name] ?? []).includes(word)) return action.name;
  }
  return null;
}

/**
 * The backend's member for each of the contract's field keys, from the members an answer showed
 * (or the document named): the same word first, then the common other names; each member once.
 */
export function matchFields(keys: readonly string[], members: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  const byFlat = new Map(members.map((m) => [flat(m), m]));
  for (const key of keys) {
    const same = byFlat.get(flat(key));
    if (same !== undefined && !used.has(same)) {
      out.set(key, same);
      used.add(same);
    }
  }
  for (const key of keys) {
    if (out.has(key)) continue;
    for (const word of FIELD_WORDS[key] ?? []) {
      const other = byFlat.get(word);
      if (other !== undefined && !used.has(other)) {
        out.set(key, other);
        used.add(other);
        break;
      }
    }
  }
  return out;
}

/** A query parameter of the operation for one of the console's paging and search names. */
export function matchParam(name: keyof typeof PARAM_WORDS, query: readonly string[]): string | undefined {
  const words = PARAM_WORDS[name]!;
  for (const word of words) {
    const found = query.find((q) => flat(q) === word);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The document's login call: a POST whose path says so and whose body has a password. */
export function findLogin(operations: readonly Operation[]): Operation | undefined {
  return operations.find(
    (op) =>
      op.method === 'POST' &&
      /(^|\/)(login|log-in|signin|sign-in|sessions?|token)(\/|$)/i.test(op.path) &&
      op.body.some((b) => /^(password|passwd|pwd|pass)$/i.test(b)),
  );
}
