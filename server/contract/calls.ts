/** Paths of the chat backend calls the console makes outside the management screens. */
export const CALLS = {
  login: '/manage/logIn',
  permission: '/manage/permission',
  siteConfig: '/api/exclude/siteConfig/webSiteConfig',
  count: '/manage/count',
  dailyStatistics: '/manage/dailyStatistics',
  financeData: '/manage/getFinanceData',
  importDatabase: '/manage/deployment/importDatabase/moeForUrl',
  runner: '/manage/deployment/runner',
  runnerSetMoment: '/manage/deployment/runner/setMoment',
  runnerSetWallet: '/manage/deployment/runner/setWallet',
  runnerSetMomentPublic: '/manage/deployment/runner/setMomentPublic',
  runnerSetAutomaticRegister: '/manage/deployment/runner/setAutomaticRegister',
  runnerSaveConfig: '/manage/deployment/runner/saveRunnerConfig',
  monitoring: '/manage/deployment/monitoring',
  syncCashWithdrawal: '/manage/finance/cashWithdrawalCheck/syncCashWithdrawal',
  /** A file for the file server (multipart: `kind`, `name`, `file`); the gateway sends it for the browser's /api/upload. */
  upload: '/manage/upload',
  /** Default of WITHDRAWAL_COUNT_PATH: the pending withdrawal count the badge shows. */
  withdrawalCount: '/manage/finance/cashWithdrawalCheck/count',
} as const;

/**
 * The console's own calls outside the management screens that a backend map's `console` section
 * binds, by name (the keys of CALLS, plus the two the gateway makes itself): the withdrawal count
 * (polled for the badge at WITHDRAWAL_COUNT_PATH) and the logout (BACKEND_LOGOUT_PATH). The
 * upload is the gateway's too: it streams the browser's file to the backend as multipart. The
 * withdrawal sync is the withdrawal-review screen's action `syncCashWithdrawal`, bound with it.
 */
export const OWN_CALLS = [
  'siteConfig',
  'count',
  'dailyStatistics',
  'financeData',
  'runner',
  'runnerSetMoment',
  'runnerSetWallet',
  'runnerSetMomentPublic',
  'runnerSetAutomaticRegister',
  'runnerSaveConfig',
  'monitoring',
  'importDatabase',
  'upload',
  'withdrawalCount',
  'logout',
] as const;
export type OwnCallName = (typeof OWN_CALLS)[number];

export interface LoginBody {
  account: string;
  password: string;
  code: string;
}

export interface LoginAnswer {
  token?: string;
  userId: string | number;
}

export interface SiteConfig {
  webIconPath: string;
  chatRoomName: string;
  logoIconPath?: string;
}

/** File-server prefix of icon and avatar paths: the gateway proxies it to FILE_SERVER_URL. */
export const FILE_SERVER_PREFIX = '/plate/';
