import type { WITHDRAWAL_METHODS, WITHDRAWAL_STATES } from './resources/finance.js';
import { SOCKET_SCHEMES, WEB_SCHEMES } from './validation.js';

/**
 * The answers of the dashboard, deployment and withdrawal-review calls, as the console reads them.
 * Money is in the smallest unit (shown divided by 100); times are ISO 8601 text in UTC, as the
 * resources' datetime fields; calendar days are 'YYYY-MM-DD' in UTC.
 */

/** One entry of GET /manage/permission's data. */
export interface PermissionEntry {
  permission: string;
}

/** GET /manage/count: the dashboard's KPI cards. */
export interface CountAnswer {
  userCount: number;
  newUsersToday: number;
  activeUsersToday: number;
  onlineUsers: number;
  groupCount: number;
  messagesToday: number;
  pendingWithdrawals: number;
  rechargeToday: number;
  withdrawalToday: number;
}

/** One calendar day of GET /manage/dailyStatistics. */
export interface DailyStatisticsRow {
  date: string;
  registrations: number;
  activeUsers: number;
  messages: number;
  newGroups: number;
  rechargeAmount: number;
  rechargeCount: number;
  withdrawalAmount: number;
  withdrawalCount: number;
  redPacketAmount: number;
}

/** GET /manage/dailyStatistics?startDate&endDate (both optional; default the last 30 days). */
export interface DailyStatisticsAnswer {
  startDate: string;
  endDate: string;
  /** Oldest day first, one row per day of the range, zero rows included. */
  list: DailyStatisticsRow[];
}

/** GET /manage/getFinanceData: all-time totals and today's movement. */
export interface FinanceData {
  totalRecharge: number;
  totalWithdrawal: number;
  totalWithdrawalFee: number;
  pendingWithdrawalAmount: number;
  pendingWithdrawalCount: number;
  /** Sum of every user's wallet balance. */
  totalBalance: number;
  totalRedPacket: number;
  totalSignInReward: number;
  rechargeToday: number;
  withdrawalToday: number;
}

export const RUNNER_SWITCHES = ['moment', 'wallet', 'momentPublic', 'automaticRegister'] as const;
export type RunnerSwitch = (typeof RUNNER_SWITCHES)[number];

/** Body of POST /manage/deployment/runner/set{Moment,Wallet,MomentPublic,AutomaticRegister}. */
export interface SwitchBody {
  enabled: boolean;
}

/** The runner's settings, saved by POST /manage/deployment/runner/saveRunnerConfig (partial bodies merge). */
export interface RunnerConfig {
  apiUrl: string;
  websocketUrl: string;
  fileServerUrl: string;
  maxUploadMb: number;
  messageRetentionDays: number;
  maxGroupMembers: number;
  workerCount: number;
  logLevel: 'error' | 'warn' | 'info' | 'debug';
}

/** The schemes each address of the runner config accepts: the real-time address is a WebSocket. */
export const RUNNER_LINK_SCHEMES: Record<'apiUrl' | 'websocketUrl' | 'fileServerUrl', readonly string[]> = {
  apiUrl: WEB_SCHEMES,
  websocketUrl: SOCKET_SCHEMES,
  fileServerUrl: WEB_SCHEMES,
};

/** GET /manage/deployment/runner. */
export type RunnerState = Record<RunnerSwitch, boolean> & { config: RunnerConfig };

export type ServiceStatus = 'running' | 'degraded' | 'stopped';

export interface ServiceMetrics {
  name: string;
  version: string;
  status: ServiceStatus;
  cpuPercent: number;
  memoryBytes: number;
  uptimeSeconds: number;
  /** Open client connections, where the service has any. */
  connections: number;
}

/** GET /manage/deployment/monitoring: a snapshot; numbers drift between calls. */
export interface MonitoringAnswer {
  time: string;
  host: {
    hostname: string;
    os: string;
    uptimeSeconds: number;
    cpu: { cores: number; usagePercent: number; load1: number; load5: number; load15: number };
    memory: { totalBytes: number; usedBytes: number };
    disk: { totalBytes: number; usedBytes: number };
    network: { rxBytesPerSecond: number; txBytesPerSecond: number };
  };
  services: ServiceMetrics[];
}

/** Body of POST /manage/deployment/importDatabase/moeForUrl. */
export interface ImportDatabaseBody {
  url: string;
}

export interface ImportDatabaseResult {
  url: string;
  importedUsers: number;
  importedGroups: number;
  importedMessages: number;
  skippedRecords: number;
  durationMs: number;
  finishedAt: string;
}

/** GET /manage/finance/cashWithdrawalCheck/count: data is the number of pending reviews. */
export type WithdrawalCountAnswer = number;

export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];
export type WithdrawalMethod = (typeof WITHDRAWAL_METHODS)[number];

/**
 * One row of GET /manage/finance/cashWithdrawalCheck/list: the fields of WITHDRAWAL_REVIEW
 * (resources/finance.ts) plus the details a reviewer pays out with.
 */
export interface WithdrawalRecord {
  id: number;
  orderNo: string;
  userId: number;
  userAccount: string;
  nickname: string;
  amount: number;
  fee: number;
  /** What the user receives: amount minus fee. */
  actualAmount: number;
  /** What the amounts are in: an ISO 4217 code (CNY), or a token's symbol (USDT). */
  currency: string;
  method: WithdrawalMethod;
  /** One line for the table: bank and account, or the wallet address. */
  accountInfo: string;
  payeeName: string;
  payeeAccount: string;
  bankName: string | null;
  state: WithdrawalState;
  reason: string | null;
  reviewer: string | null;
  createTime: string;
  reviewTime: string | null;
}

export interface WithdrawalListAnswer {
  list: WithdrawalRecord[];
  total: number;
  /** Sums of amount and fee over the whole filtered set. */
  totals?: { amount: number; fee: number };
}

/** Body of POST .../cashWithdrawalCheck/approve and /reject: one id or several; reject needs a reason. */
export interface WithdrawalReviewBody {
  id?: number;
  ids?: number[];
  reason?: string;
}

export interface WithdrawalReviewAnswer {
  updated: number;
}

/** POST .../cashWithdrawalCheck/syncCashWithdrawal. */
export interface WithdrawalSyncAnswer {
  synced: number;
}
